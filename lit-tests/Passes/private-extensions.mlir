// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-private-extensions))' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2}))' %s | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-contract-elementwise,hydride-sum-as-dot{target=x86-avx2},hydride-synthesize{target=x86-avx2}))' %s | FileCheck %s --check-prefix=SHARED
// hydride-private-extensions: an extension that only multiplications of its
// block read gets a copy per multiplication, so each product's window reads
// the narrow value. Register-blocked code shares one extended operand among
// several accumulators; without the copies no window sees that the shared
// operand is 16-bit, and vpmaddwd is found for none of them (SHARED).

// Two rows of i16 against one vector of i16 weights, pairs summed into i32
// lanes (a two-row matrix-vector step).
// CHECK-LABEL: func.func @two_rows_one_weight
// CHECK-COUNT-2: arith.extsi %arg2 : vector<16xi16> to vector<16xi32>
// CHECK-NOT: arith.extsi %arg2
// AVX2-LABEL: func.func @two_rows_one_weight
// AVX2-COUNT-2: autollvm.
// AVX2-NOT: arith.muli
// AVX2: return
// SHARED-LABEL: func.func @two_rows_one_weight
// SHARED-NOT: autollvm.
// SHARED: arith.muli
// SHARED: return
func.func @two_rows_one_weight(%r0: vector<16xi16>, %r1: vector<16xi16>, %w: vector<16xi16>,
                               %a0: vector<8xi32>, %a1: vector<8xi32>) -> (vector<8xi32>, vector<8xi32>) {
  %we = arith.extsi %w : vector<16xi16> to vector<16xi32>
  %e0 = arith.extsi %r0 : vector<16xi16> to vector<16xi32>
  %e1 = arith.extsi %r1 : vector<16xi16> to vector<16xi32>
  %p0 = arith.muli %e0, %we : vector<16xi32>
  %p1 = arith.muli %e1, %we : vector<16xi32>
  %q0 = vector.shape_cast %p0 : vector<16xi32> to vector<8x2xi32>
  %q1 = vector.shape_cast %p1 : vector<16xi32> to vector<8x2xi32>
  %s0 = vector.multi_reduction <add>, %q0, %a0 [1] : vector<8x2xi32> to vector<8xi32>
  %s1 = vector.multi_reduction <add>, %q1, %a1 [1] : vector<8x2xi32> to vector<8xi32>
  return %s0, %s1 : vector<8xi32>, vector<8xi32>
}

// An extension also read by something other than a multiplication stays
// shared: that reader keeps it alive.
// CHECK-LABEL: func.func @also_added
// CHECK-COUNT-1: arith.extui %arg0
// CHECK-NOT: arith.extui %arg0
func.func @also_added(%x: vector<16xi8>, %y: vector<16xi16>, %z: vector<16xi16>) -> (vector<16xi16>, vector<16xi16>, vector<16xi16>) {
  %xe = arith.extui %x : vector<16xi8> to vector<16xi16>
  %p = arith.muli %xe, %y : vector<16xi16>
  %q = arith.muli %xe, %z : vector<16xi16>
  %s = arith.addi %xe, %y : vector<16xi16>
  return %p, %q, %s : vector<16xi16>, vector<16xi16>, vector<16xi16>
}

// Multiplications in a loop body reading an extension made before the loop
// keep the original: nothing moves into the loop.
// CHECK-LABEL: func.func @hoisted
// CHECK: arith.extui %arg0
// CHECK: scf.for
// CHECK-NOT: arith.extui
// CHECK: return
func.func @hoisted(%x: vector<16xi8>, %y: vector<16xi16>, %n: index) -> vector<16xi16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %xe = arith.extui %x : vector<16xi8> to vector<16xi16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (vector<16xi16>) {
    %p = arith.muli %xe, %acc : vector<16xi16>
    %q = arith.muli %p, %xe : vector<16xi16>
    scf.yield %q : vector<16xi16>
  }
  return %r : vector<16xi16>
}

// Products by constants are the sums of products' (a tap weighted in two
// sums, as in a Sobel operator): the extension stays shared.
// CHECK-LABEL: func.func @by_constants
// CHECK-COUNT-1: arith.extui %arg0
// CHECK-NOT: arith.extui %arg0
func.func @by_constants(%x: vector<16xi8>) -> (vector<16xi16>, vector<16xi16>) {
  %two = arith.constant dense<2> : vector<16xi16>
  %four = arith.constant dense<4> : vector<16xi16>
  %xe = arith.extui %x : vector<16xi8> to vector<16xi16>
  %p = arith.muli %xe, %two : vector<16xi16>
  %q = arith.muli %xe, %four : vector<16xi16>
  return %p, %q : vector<16xi16>, vector<16xi16>
}
