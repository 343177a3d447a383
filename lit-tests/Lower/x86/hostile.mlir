// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: not %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512}))' %S/../Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// Unusual input is left as it is, with a remark saying why (more in
// unsupported.mlir: floats, index, scalable and 0-d vectors, unknown ops);
// malformed input gets MLIR's own diagnostic before the pass runs. The large
// inputs and their time and memory bounds are in bounds.test.

// MALFORMED: malformed.mlir:3:10: error: use of value '%0' expects different type than prior uses: 'vector<16xi16>' vs 'vector<16xi8>'

// A declaration: nothing to lower.
// REMARK: hostile.mlir:[[@LINE+3]]:1: remark: hydride-synthesize: nothing to lower: no blocks (a declaration)
// CHECK-LABEL: func.func private @no_body
// CHECK-SAME: -> vector<16xi8>{{$}}
func.func private @no_body(vector<16xi8>) -> vector<16xi8>

// One-lane vectors, i1 lanes and odd widths are searched like any other
// and left unchanged where no instruction computes them.
// REMARK-DAG: hostile.mlir:[[@LINE+6]]:8: remark: window of 2 ops left unchanged (target x86-avx512): no program of one, two or three target instructions computes this window on sample inputs
// CHECK-LABEL: func.func @one_lane
// CHECK-NEXT: arith.addi %{{.*}} : vector<1xi32>
// CHECK-NEXT: arith.muli %{{.*}} : vector<1xi32>
func.func @one_lane(%a: vector<1xi32>, %b: vector<1xi32>) -> vector<1xi32> {
  %0 = arith.addi %a, %b : vector<1xi32>
  %1 = arith.muli %0, %b : vector<1xi32>
  return %1 : vector<1xi32>
}

// Mask lanes: `(a ^ b) & b` is `~a & b`, one mask instruction (`kandnw`).
// CHECK-LABEL: func.func @bool_lanes
// CHECK-NEXT: autollvm.mask_and_not %arg0, %arg1 : vector<16xi1>
// CHECK-NEXT: return
func.func @bool_lanes(%a: vector<16xi1>, %b: vector<16xi1>) -> vector<16xi1> {
  %0 = arith.xori %a, %b : vector<16xi1>
  %1 = arith.andi %0, %b : vector<16xi1>
  return %1 : vector<16xi1>
}

// REMARK-DAG: hostile.mlir:[[@LINE+9]]:8: remark: window of 2 ops left unchanged (target x86-avx512)
// REMARK-DAG: hostile.mlir:[[@LINE+10]]:8: remark: window of 2 ops left unchanged (target x86-avx512)
// CHECK-LABEL: func.func @odd_widths
// CHECK-NEXT: arith.extui %{{.*}} : vector<16xi3> to vector<16xi7>
// CHECK-NEXT: arith.addi %{{.*}} : vector<16xi7>
// CHECK-NEXT: arith.muli %{{.*}} : vector<4xi65>
// CHECK-NEXT: arith.addi %{{.*}} : vector<4xi65>
func.func @odd_widths(%a: vector<16xi3>, %b: vector<16xi7>, %c: vector<4xi65>) -> (vector<16xi7>, vector<4xi65>) {
  %0 = arith.extui %a : vector<16xi3> to vector<16xi7>
  %1 = arith.addi %0, %b : vector<16xi7>
  %2 = arith.muli %c, %c : vector<4xi65>
  %3 = arith.addi %2, %c : vector<4xi65>
  return %1, %3 : vector<16xi7>, vector<4xi65>
}

// Dynamic shapes: reads of a dynamically shaped memref and tensor at
// window boundaries; the window between them is searched (a single add
// is LLVM's already, with no remark).
// CHECK-LABEL: func.func @dynamic
// CHECK: vector.transfer_read %{{.*}} : memref<?x?xi8>, vector<16xi8>
// CHECK: vector.transfer_read %{{.*}} : tensor<?xi8>, vector<16xi8>
// CHECK: arith.addi %{{.*}} : vector<16xi8>
func.func @dynamic(%t: tensor<?xi8>, %m: memref<?x?xi8>, %i: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0 : i8
  %v = vector.transfer_read %m[%i, %c0], %p : memref<?x?xi8>, vector<16xi8>
  %w = vector.transfer_read %t[%c0], %p : tensor<?xi8>, vector<16xi8>
  %s = arith.addi %v, %w : vector<16xi8>
  return %s : vector<16xi8>
}
