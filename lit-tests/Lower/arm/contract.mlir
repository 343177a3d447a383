// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon-dotprod-i8mm cache-dir=%t.cache},convert-autollvm-to-arm)' %s | FileCheck %s
// `vector.contract`, the form linalg vectorization gives the backend, read
// through its semantics (indexing maps, reduction over the dimensions the
// accumulator's map leaves out): the 2x2x8 tiles of MLIR's i8mm integration
// test (packed maps, transposed RHS) become smmla, ummla and usmmla, and the
// row-wise 4-way dot products sdot, udot and usdot. No pattern names any of
// them. Run/arm/contract.test executes them under qemu.
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#acc = affine_map<(m, n, k) -> (m, n)>
#dot_in = affine_map<(m, k) -> (m, k)>
#dot_acc = affine_map<(m, k) -> (m)>

// CHECK-LABEL: func.func @smmla
// CHECK: hydride_arm.vmmlaq_s32
// CHECK-NOT: vector.contract
func.func @smmla(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<2x8xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<2x8xi8>
  %acc = vector.shape_cast %c : vector<4xi32> to vector<2x2xi32>
  %l = arith.extsi %lhs : vector<2x8xi8> to vector<2x8xi32>
  %r = arith.extsi %rhs : vector<2x8xi8> to vector<2x8xi32>
  %0 = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<2x8xi32>, vector<2x8xi32> into vector<2x2xi32>
  %res = vector.shape_cast %0 : vector<2x2xi32> to vector<4xi32>
  return %res : vector<4xi32>
}

// CHECK-LABEL: func.func @ummla
// CHECK: hydride_arm.vmmlaq_u32
// CHECK-NOT: vector.contract
func.func @ummla(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<2x8xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<2x8xi8>
  %acc = vector.shape_cast %c : vector<4xi32> to vector<2x2xi32>
  %l = arith.extui %lhs : vector<2x8xi8> to vector<2x8xi32>
  %r = arith.extui %rhs : vector<2x8xi8> to vector<2x8xi32>
  %0 = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<2x8xi32>, vector<2x8xi32> into vector<2x2xi32>
  %res = vector.shape_cast %0 : vector<2x2xi32> to vector<4xi32>
  return %res : vector<4xi32>
}

// CHECK-LABEL: func.func @usmmla
// CHECK: hydride_arm.vusmmlaq_s32
// CHECK-NOT: vector.contract
func.func @usmmla(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<2x8xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<2x8xi8>
  %acc = vector.shape_cast %c : vector<4xi32> to vector<2x2xi32>
  %l = arith.extui %lhs : vector<2x8xi8> to vector<2x8xi32>
  %r = arith.extsi %rhs : vector<2x8xi8> to vector<2x8xi32>
  %0 = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<2x8xi32>, vector<2x8xi32> into vector<2x2xi32>
  %res = vector.shape_cast %0 : vector<2x2xi32> to vector<4xi32>
  return %res : vector<4xi32>
}

// CHECK-LABEL: func.func @sdot
// CHECK: hydride_arm.vdotq_s32
// CHECK-NOT: vector.contract
func.func @sdot(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<4x4xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<4x4xi8>
  %l = arith.extsi %lhs : vector<4x4xi8> to vector<4x4xi32>
  %r = arith.extsi %rhs : vector<4x4xi8> to vector<4x4xi32>
  %0 = vector.contract {indexing_maps = [#dot_in, #dot_in, #dot_acc], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<4x4xi32>, vector<4x4xi32> into vector<4xi32>
  return %0 : vector<4xi32>
}

// CHECK-LABEL: func.func @udot
// CHECK: hydride_arm.vdotq_u32
// CHECK-NOT: vector.contract
func.func @udot(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<4x4xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<4x4xi8>
  %l = arith.extui %lhs : vector<4x4xi8> to vector<4x4xi32>
  %r = arith.extui %rhs : vector<4x4xi8> to vector<4x4xi32>
  %0 = vector.contract {indexing_maps = [#dot_in, #dot_in, #dot_acc], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<4x4xi32>, vector<4x4xi32> into vector<4xi32>
  return %0 : vector<4xi32>
}

// CHECK-LABEL: func.func @usdot
// CHECK: hydride_arm.vusdotq_s32
// CHECK-NOT: vector.contract
func.func @usdot(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %lhs = vector.shape_cast %a : vector<16xi8> to vector<4x4xi8>
  %rhs = vector.shape_cast %b : vector<16xi8> to vector<4x4xi8>
  %l = arith.extui %lhs : vector<4x4xi8> to vector<4x4xi32>
  %r = arith.extsi %rhs : vector<4x4xi8> to vector<4x4xi32>
  %0 = vector.contract {indexing_maps = [#dot_in, #dot_in, #dot_acc], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %acc : vector<4x4xi32>, vector<4x4xi32> into vector<4xi32>
  return %0 : vector<4xi32>
}
