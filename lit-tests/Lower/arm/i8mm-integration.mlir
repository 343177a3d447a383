// The contractions of MLIR's ArmNeon integration test
// test/Integration/Dialect/Vector/CPU/ArmNeon/vector-contract-i8mm.mlir
// (LHS 4x8 i8, RHS 4x8 i8 transposed, ACC 4x4 i32, packed maps), taking their
// operands as arguments. Upstream lowers them with the hand-written
// LowerContractionToNeonI8MMPattern; hydride splits each into 128-bit tiles
// (2x2x8) and synthesis finds the instruction of each tile (for the signed x
// unsigned form, of each tile's transpose).
// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon-dotprod-i8mm cache-dir=%t.cache},convert-autollvm-to-arm)' %s | FileCheck %s

#packed_maps = [
  affine_map<(m, n, k) -> (m, k)>,
  affine_map<(m, n, k) -> (n, k)>,
  affine_map<(m, n, k) -> (m, n)>
]

// CHECK-LABEL: func.func @test_smmla
// CHECK-COUNT-4: hydride_arm.vmmlaq_s32
// CHECK-NOT: vector.contract
// CHECK-LABEL: func.func @test_ummla
// CHECK-COUNT-4: hydride_arm.vmmlaq_u32
// CHECK-NOT: vector.contract
// CHECK-LABEL: func.func @test_usmmla
// CHECK-COUNT-4: hydride_arm.vusmmlaq_s32
// CHECK-NOT: vector.contract
// The signed x unsigned form is usmmla with the operands swapped, on the
// transposed accumulator, transposed back: C = (Accᵀ + B·Aᵀ)ᵀ. The first
// tile in full, then the other three.
// CHECK-LABEL: func.func @test_summla
// CHECK-SAME: (%[[A:.*]]: vector<32xi8>, %[[B:.*]]: vector<32xi8>,
// CHECK-DAG: %[[LHS:.*]] = vector.shape_cast %[[A]] : vector<32xi8> to vector<4x8xi8>
// CHECK-DAG: %[[RHS:.*]] = vector.shape_cast %[[B]] : vector<32xi8> to vector<4x8xi8>
// CHECK-DAG: %[[ACC:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [2, 2]
// CHECK-DAG: %[[A0:.*]] = vector.extract_strided_slice %[[LHS]] {offsets = [0, 0], sizes = [2, 8]
// CHECK-DAG: %[[B0:.*]] = vector.extract_strided_slice %[[RHS]] {offsets = [0, 0], sizes = [2, 8]
// CHECK: %[[ACC1:.*]] = vector.shape_cast %[[ACC]] : vector<2x2xi32> to vector<4xi32>
// CHECK: %[[ACCT:.*]] = vector.shuffle %[[ACC1]], %[[ACC1]] [0, 2, 1, 3] : vector<4xi32>, vector<4xi32>
// CHECK-DAG: %[[B1:.*]] = vector.shape_cast %[[B0]] : vector<2x8xi8> to vector<16xi8>
// CHECK-DAG: %[[A1:.*]] = vector.shape_cast %[[A0]] : vector<2x8xi8> to vector<16xi8>
// CHECK: %[[M:.*]] = "hydride_arm.vusmmlaq_s32"(%[[ACCT]], %[[B1]], %[[A1]])
// CHECK: vector.shuffle %[[M]], %[[M]] [0, 2, 1, 3] : vector<4xi32>, vector<4xi32>
// CHECK-COUNT-3: hydride_arm.vusmmlaq_s32
// CHECK-NOT: vector.contract

func.func @test_smmla(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %lhs = vector.shape_cast %a : vector<32xi8> to vector<4x8xi8>
  %rhs = vector.shape_cast %b : vector<32xi8> to vector<4x8xi8>
  %acc = vector.shape_cast %c : vector<16xi32> to vector<4x4xi32>
  %0 = arith.extsi %lhs : vector<4x8xi8> to vector<4x8xi32>
  %1 = arith.extsi %rhs : vector<4x8xi8> to vector<4x8xi32>
  %2 = vector.contract {indexing_maps = #packed_maps, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %0, %1, %acc : vector<4x8xi32>, vector<4x8xi32> into vector<4x4xi32>
  %r = vector.shape_cast %2 : vector<4x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

func.func @test_ummla(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %lhs = vector.shape_cast %a : vector<32xi8> to vector<4x8xi8>
  %rhs = vector.shape_cast %b : vector<32xi8> to vector<4x8xi8>
  %acc = vector.shape_cast %c : vector<16xi32> to vector<4x4xi32>
  %0 = arith.extui %lhs : vector<4x8xi8> to vector<4x8xi32>
  %1 = arith.extui %rhs : vector<4x8xi8> to vector<4x8xi32>
  %2 = vector.contract {indexing_maps = #packed_maps, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %0, %1, %acc : vector<4x8xi32>, vector<4x8xi32> into vector<4x4xi32>
  %r = vector.shape_cast %2 : vector<4x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

func.func @test_usmmla(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %lhs = vector.shape_cast %a : vector<32xi8> to vector<4x8xi8>
  %rhs = vector.shape_cast %b : vector<32xi8> to vector<4x8xi8>
  %acc = vector.shape_cast %c : vector<16xi32> to vector<4x4xi32>
  %0 = arith.extui %lhs : vector<4x8xi8> to vector<4x8xi32>
  %1 = arith.extsi %rhs : vector<4x8xi8> to vector<4x8xi32>
  %2 = vector.contract {indexing_maps = #packed_maps, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %0, %1, %acc : vector<4x8xi32>, vector<4x8xi32> into vector<4x4xi32>
  %r = vector.shape_cast %2 : vector<4x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

func.func @test_summla(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %lhs = vector.shape_cast %a : vector<32xi8> to vector<4x8xi8>
  %rhs = vector.shape_cast %b : vector<32xi8> to vector<4x8xi8>
  %acc = vector.shape_cast %c : vector<16xi32> to vector<4x4xi32>
  %0 = arith.extsi %lhs : vector<4x8xi8> to vector<4x8xi32>
  %1 = arith.extui %rhs : vector<4x8xi8> to vector<4x8xi32>
  %2 = vector.contract {indexing_maps = #packed_maps, iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %0, %1, %acc : vector<4x8xi32>, vector<4x8xi32> into vector<4x4xi32>
  %r = vector.shape_cast %2 : vector<4x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}
