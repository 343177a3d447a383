// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=aarch64-neon remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=NEON
// hydride-in-place-widening alone: (a + 4b + 3) >> 2 over bytes extended to
// 16 bits and truncated back is computed on the even and odd bytes where
// they lie in 16-bit lanes, with no extension or truncation across lanes.
// Only x86 extends and truncates across 128-bit lanes; NEON keeps the form.

// CHECK: remark: hydride-in-place-widening: 9 ops computed in place on the 2 parts of 16-bit lanes, without extending or truncating across lanes (proved equal)
// CHECK-LABEL: func.func @weighted_pair
// CHECK-NOT: arith.extui
// CHECK-NOT: arith.trunci
// CHECK: return
// NEON-NOT: remark
// NEON: arith.extui
// NEON: arith.trunci
func.func @weighted_pair(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<32xi8> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %c2 = arith.constant dense<2> : vector<32xi16>
  %y2 = arith.shli %y, %c2 : vector<32xi16>
  %s = arith.addi %x, %y2 : vector<32xi16>
  %c3 = arith.constant dense<3> : vector<32xi16>
  %t = arith.addi %s, %c3 : vector<32xi16>
  %q = arith.shrui %t, %c2 : vector<32xi16>
  %r = arith.trunci %q : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}
