// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}),convert-autollvm-to-arm)' %s | FileCheck %s
// Constants wider than 64 bits are read whole: a saturating add of 64-bit
// lanes, computed at 65 bits and clamped between the bounds of i64 written
// at 65 bits (the lower one negative), is `sqadd`. Read as its low 64 bits,
// the lower bound would be a large positive number, and the window would
// be another function.

// CHECK-LABEL: func.func @saturating_add_i64
// CHECK-NEXT: hydride_arm.vqaddq_s64"(%arg0, %arg1)
// CHECK-NEXT: return
func.func @saturating_add_i64(%a: vector<2xi64>, %b: vector<2xi64>) -> vector<2xi64> {
  %hi = arith.constant dense<9223372036854775807> : vector<2xi65>
  %lo = arith.constant dense<-9223372036854775808> : vector<2xi65>
  %wa = arith.extsi %a : vector<2xi64> to vector<2xi65>
  %wb = arith.extsi %b : vector<2xi64> to vector<2xi65>
  %s = arith.addi %wa, %wb : vector<2xi65>
  %c = arith.minsi %s, %hi : vector<2xi65>
  %d = arith.maxsi %c, %lo : vector<2xi65>
  %r = arith.trunci %d : vector<2xi65> to vector<2xi64>
  return %r : vector<2xi64>
}
