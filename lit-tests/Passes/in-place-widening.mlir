// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx512 cpu=emeraldrapids remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=EMR
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=aarch64-neon remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=NEON
// RUN: not %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx2 cpu=pentium4}))' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=hexagon-hvx128 cpu=znver4})' %s 2>&1 | FileCheck %s --check-prefix=NO-MODELS
// hydride-in-place-widening alone: (a + 4b + 3) >> 2 over bytes extended to
// 16 bits and truncated back is computed on the even and odd bytes where
// they lie in 16-bit lanes, with no extension or truncation across lanes,
// where that is cheaper on the CPU (`cpu=`, by its scheduling model): at
// x86-avx2 on its default CPU (x86-64-v3), where the 512-bit values are
// split in two; not at x86-avx512 on Emerald Rapids, where one 512-bit
// extension each is less load on its shuffle port than the doubled
// arithmetic on its vector ALUs, nor on Neoverse N1 (aarch64-neon's
// default), whose extensions are cheap.

// CHECK: remark: hydride-in-place-widening: 9 ops computed in place on the 2 parts of 16-bit lanes, without extending or truncating across lanes (proved equal) ({{[0-9.]+}} cycles in place, {{[0-9.]+}} as it is, on cpu x86-64-v3)
// CHECK-LABEL: func.func @weighted_pair
// CHECK-NOT: arith.extui
// CHECK-NOT: arith.trunci
// CHECK: return
// EMR: remark: hydride-in-place-widening: not computed in place: {{[0-9.]+}} cycles in place, {{[0-9.]+}} cycles as it is, on cpu emeraldrapids
// EMR: arith.extui
// EMR: arith.trunci
// NEON: remark: hydride-in-place-widening: not computed in place: {{.*}} on cpu neoverse-n1
// NEON: arith.extui
// NEON: arith.trunci
// UNKNOWN: error: {{.*}}hydride-in-place-widening: unknown cpu 'pentium4' for x86 (priced: alderlake, emeraldrapids, {{.*}}, znver5)
// NO-MODELS: error: lower-to-autollvm: cpu 'znver4' given, but hvx has no CPU models
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
