// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-synthesize{target=x86-avx2 cache-dir=%t.cache}))' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-synthesize{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=NEON
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-synthesize{target=x86-avx2 cache-dir=%t.cache max-ops=1 cone-ops=0 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-synthesize{target=x86-avx2 cache-dir=%t.cache max-ops=1}))' %s | FileCheck %s --check-prefix=CONE
// hydride-synthesize alone: max(a, b) - b over unsigned 16-bit lanes is a
// saturating subtraction, which synthesis finds and Z3 proves (at
// aarch64-neon on each 128-bit half). With windows
// of one op (max-ops=1) and no cones (cone-ops=0) the two ops are never
// seen together; with windows of one op, the cone at the subtraction (both
// ops, two inputs) is searched whole.

// CHECK-LABEL: func.func @saturating_sub_u16
// CHECK: autollvm.sub_sat_u %arg0, %arg1
// CHECK-NOT: arith.subi
// NEON-LABEL: func.func @saturating_sub_u16
// NEON-COUNT-2: autollvm.sub_sat_u {{.*}} : vector<8xi16>
// NEON-NOT: arith.subi
// ONE-LABEL: func.func @saturating_sub_u16
// ONE-NOT: autollvm.sub_sat_u
// CONE-LABEL: func.func @saturating_sub_u16
// CONE: autollvm.sub_sat_u %arg0, %arg1
func.func @saturating_sub_u16(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %m = arith.maxui %a, %b : vector<16xi16>
  %d = arith.subi %m, %b : vector<16xi16>
  return %d : vector<16xi16>
}
