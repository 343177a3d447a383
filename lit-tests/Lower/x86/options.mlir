// RUN: rm -rf %t.cache
// Two-step programs on (the default) and off: saturating 8 x i16 to u8 takes
// packuswb and then the low half of its result.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=TWO
// The budget is part of the memo key: the first run's answer is not reused here.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 two-step-budget=0 remarks=true cache-dir=%t.cache})' %s 2>&1 | FileCheck %s --check-prefix=ONE
// An unknown option is an error naming it.
// RUN: not %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{two-steps=1})' %s 2>&1 | FileCheck %s --check-prefix=BAD

// TWO-LABEL: func.func @packus_i16_x8
// TWO: autollvm.pack_sat_u_in_lanes
// TWO: vector.shuffle
// ONE: remark: window of 3 ops left unchanged (target x86-avx512): no program of one, two or three target instructions computes this window
// ONE-LABEL: func.func @packus_i16_x8
// ONE-NOT: autollvm
// ONE: arith.maxsi
// BAD: no such option two-steps
func.func @packus_i16_x8(%a: vector<8xi16>) -> vector<8xi8> {
  %lo = arith.constant dense<0> : vector<8xi16>
  %hi = arith.constant dense<255> : vector<8xi16>
  %c1 = arith.maxsi %a, %lo : vector<8xi16>
  %c2 = arith.minsi %c1, %hi : vector<8xi16>
  %r = arith.trunci %c2 : vector<8xi16> to vector<8xi8>
  return %r : vector<8xi8>
}
