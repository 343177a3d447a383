// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-deinterleaved-extrema{target=x86-avx512 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-deinterleaved-extrema{target=aarch64-neon remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=NEON
// hydride-deinterleaved-extrema alone: the minimum of all six halves of
// three deinterleaved rows, combined in a mixed order, is the minimum of the
// rows at full width, deinterleaved once, where that is cheaper on the
// CPU's model: on Zen 4's, and on Neoverse N1's too, as the rows are not
// loaded here (a deinterleave of a load is `ld2` on NEON).

// CHECK: remark: hydride-deinterleaved-extrema: minui of 3 deinterleaved vectors taken before the deinterleave: 1 deinterleave instead of 3 (proved equal)
// CHECK-LABEL: func.func @min_of_three_rows
// CHECK: arith.minui {{.*}} : vector<32xi16>
// CHECK: arith.minui {{.*}} : vector<32xi16>
// CHECK: vector.deinterleave
// CHECK-NOT: vector.deinterleave
// NEON: remark: hydride-deinterleaved-extrema: minui of 3 deinterleaved vectors taken before the deinterleave: 1 deinterleave instead of 3 (proved equal) ({{[0-9.]+}} cycles deinterleaved once, {{[0-9.]+}} as it is, on cpu neoverse-n1)
// NEON-LABEL: func.func @min_of_three_rows
// NEON-COUNT-1: vector.deinterleave
// NEON-NOT: vector.deinterleave
func.func @min_of_three_rows(%a: vector<32xi16>, %b: vector<32xi16>, %c: vector<32xi16>) -> vector<16xi16> {
  %ae, %ao = vector.deinterleave %a : vector<32xi16> -> vector<16xi16>
  %be, %bo = vector.deinterleave %b : vector<32xi16> -> vector<16xi16>
  %ce, %co = vector.deinterleave %c : vector<32xi16> -> vector<16xi16>
  %m1 = arith.minui %ae, %bo : vector<16xi16>
  %m2 = arith.minui %m1, %co : vector<16xi16>
  %m3 = arith.minui %ao, %be : vector<16xi16>
  %m4 = arith.minui %m3, %ce : vector<16xi16>
  %m = arith.minui %m2, %m4 : vector<16xi16>
  return %m : vector<16xi16>
}
