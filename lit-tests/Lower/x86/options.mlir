// RUN: rm -rf %t.cache
// Two-step programs on (the default) and off: the clamp needs two instructions.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=TWO
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 two-step-budget=0 remarks=true cache-dir=%t.cache})' %s 2>&1 | FileCheck %s --check-prefix=ONE
// The budget is part of the memo key: the first run's answer is not reused by the second.
// An unknown option is an error naming it.
// RUN: not %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{two-steps=1})' %s 2>&1 | FileCheck %s --check-prefix=BAD

// TWO-LABEL: func.func @clamp_u8
// TWO: "autollvm.max_epu"
// TWO: "autollvm.min_epu"
// ONE: remark: window of 2 ops left unchanged: no program of one or two target instructions computes this window
// ONE-LABEL: func.func @clamp_u8
// ONE-NOT: autollvm
// ONE: arith.maxui
// BAD: no such option two-steps
func.func @clamp_u8(%a: vector<64xi8>) -> vector<64xi8> {
  %lo = arith.constant dense<10> : vector<64xi8>
  %hi = arith.constant dense<-6> : vector<64xi8>
  %c1 = arith.maxui %a, %lo : vector<64xi8>
  %c2 = arith.minui %c1, %hi : vector<64xi8>
  return %c2 : vector<64xi8>
}
