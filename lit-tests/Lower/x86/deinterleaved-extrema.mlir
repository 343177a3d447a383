// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ARM
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-deinterleaved-extrema{target=aarch64-neon cpu=cortex-a78 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=A78
// An extremum over both halves of deinterleaved rows is the extremum of
// the rows, deinterleaved once: max(even(a), odd(a), even(b), odd(b)) =
// max(even(m), odd(m)) with m = max(a, b). Both forms are priced on the
// CPU's model. On NEON a deinterleave of rows loaded from memory is `ld2`
// with the load: Neoverse N1's model still finds the rows' maximum
// deinterleaved once cheaper, Cortex-A78's keeps the two `ld2`.

// Remarks come first (the module is printed after the pass).
// CHECK: remark: hydride-deinterleaved-extrema: maxui of 2 deinterleaved vectors taken before the deinterleave: 1 deinterleave instead of 2 (proved equal)
// CHECK: remark: hydride-deinterleaved-extrema: minsi of 3 deinterleaved vectors taken before the deinterleave: 1 deinterleave instead of 3 (proved equal)
// ARM: remark: hydride-deinterleaved-extrema: maxui of 2 deinterleaved vectors taken before the deinterleave: 1 deinterleave instead of 2 (proved equal) ({{[0-9.]+}} cycles deinterleaved once, {{[0-9.]+}} as it is, on cpu neoverse-n1)
// ARM: remark: hydride-deinterleaved-extrema: maxui of 2 deinterleaved vectors taken before the deinterleave: {{.*}} on cpu neoverse-n1)
// A78: remark: hydride-deinterleaved-extrema: maxui of 2 deinterleaved vectors taken before the deinterleave: {{.*}} on cpu cortex-a78)
// A78: remark: hydride-deinterleaved-extrema: maxui of 2 deinterleaved vectors not taken before the deinterleave: {{[0-9.]+}} cycles deinterleaved once, {{[0-9.]+}} cycles as it is, on cpu cortex-a78

// CHECK-LABEL: func.func @pool2x2
// CHECK: %[[M:.*]] = arith.maxui %arg0, %arg1 : vector<64xi8>
// CHECK: %[[E:.*]], %[[O:.*]] = vector.deinterleave %[[M]] : vector<64xi8> -> vector<32xi8>
// CHECK-NOT: vector.deinterleave
// CHECK: %[[R:.*]] = arith.maxui %[[E]], %[[O]] : vector<32xi8>
// CHECK: return %[[R]]
// ARM-LABEL: func.func @pool2x2
// ARM-COUNT-1: vector.deinterleave
// ARM-NOT: vector.deinterleave
// ARM: return
func.func @pool2x2(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<32xi8> {
  %e0, %o0 = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %e1, %o1 = vector.deinterleave %b : vector<64xi8> -> vector<32xi8>
  %m1 = arith.maxui %e0, %o0 : vector<32xi8>
  %m2 = arith.maxui %e1, %o1 : vector<32xi8>
  %r = arith.maxui %m1, %m2 : vector<32xi8>
  return %r : vector<32xi8>
}

// The rows loaded from memory.
// ARM-LABEL: func.func @pool2x2_loaded
// ARM-COUNT-1: vector.deinterleave
// ARM-NOT: vector.deinterleave
// ARM: return
// A78-LABEL: func.func @pool2x2_loaded
// A78-COUNT-2: vector.deinterleave
func.func @pool2x2_loaded(%m: memref<?xi8>, %i: index, %j: index) -> vector<16xi8> {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %b = vector.load %m[%j] : memref<?xi8>, vector<32xi8>
  %ae, %ao = vector.deinterleave %a : vector<32xi8> -> vector<16xi8>
  %be, %bo = vector.deinterleave %b : vector<32xi8> -> vector<16xi8>
  %m1 = arith.maxui %ae, %ao : vector<16xi8>
  %m2 = arith.maxui %be, %bo : vector<16xi8>
  %r = arith.maxui %m1, %m2 : vector<16xi8>
  return %r : vector<16xi8>
}

// Three rows, the halves in any order and grouping.
// CHECK-LABEL: func.func @min_of_three
// CHECK-COUNT-1: vector.deinterleave
// CHECK-NOT: vector.deinterleave
// CHECK: return
func.func @min_of_three(%a: vector<32xi16>, %b: vector<32xi16>, %c: vector<32xi16>) -> vector<16xi16> {
  %e0, %o0 = vector.deinterleave %a : vector<32xi16> -> vector<16xi16>
  %e1, %o1 = vector.deinterleave %b : vector<32xi16> -> vector<16xi16>
  %e2, %o2 = vector.deinterleave %c : vector<32xi16> -> vector<16xi16>
  %m1 = arith.minsi %o1, %e0 : vector<16xi16>
  %m2 = arith.minsi %e2, %o0 : vector<16xi16>
  %m3 = arith.minsi %m1, %e1 : vector<16xi16>
  %m4 = arith.minsi %m3, %o2 : vector<16xi16>
  %r = arith.minsi %m2, %m4 : vector<16xi16>
  return %r : vector<16xi16>
}

// Only the even halves: not every lane of the rows is reduced, so the
// tree is left alone.
// CHECK-LABEL: func.func @evens_only
// CHECK-COUNT-2: vector.deinterleave
// CHECK: return
func.func @evens_only(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<32xi8> {
  %e0, %o0 = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %e1, %o1 = vector.deinterleave %b : vector<64xi8> -> vector<32xi8>
  %r = arith.maxui %e0, %e1 : vector<32xi8>
  return %r : vector<32xi8>
}

// An odd half read outside the tree too: the deinterleaves stay.
// CHECK-LABEL: func.func @half_read_twice
// CHECK-COUNT-2: vector.deinterleave
// CHECK: return
func.func @half_read_twice(%a: vector<64xi8>, %b: vector<64xi8>) -> (vector<32xi8>, vector<32xi8>) {
  %e0, %o0 = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %e1, %o1 = vector.deinterleave %b : vector<64xi8> -> vector<32xi8>
  %m1 = arith.maxui %e0, %o0 : vector<32xi8>
  %m2 = arith.maxui %e1, %o1 : vector<32xi8>
  %r = arith.maxui %m1, %m2 : vector<32xi8>
  return %r, %o1 : vector<32xi8>, vector<32xi8>
}
