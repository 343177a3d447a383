// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}),convert-autollvm-to-arm)' %s | FileCheck %s
// An instruction clang lowers to generic IR is a program of one op for a
// window of two ops or more: the one op LLVM selects the instruction from.
// A shift right by a constant added to an accumulator is `ssra`; a single
// shift is left to LLVM as written.

// CHECK-LABEL: func.func @shift_right_accumulate
// CHECK-NEXT: hydride_arm.vsraq_n_s16"(%arg0, %arg1) {n = 3 : i32}
// CHECK-NEXT: return
func.func @shift_right_accumulate(%acc: vector<8xi16>, %x: vector<8xi16>) -> vector<8xi16> {
  %k = arith.constant dense<3> : vector<8xi16>
  %s = arith.shrsi %x, %k : vector<8xi16>
  %r = arith.addi %acc, %s : vector<8xi16>
  return %r : vector<8xi16>
}

// CHECK-LABEL: func.func @shift_alone
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.shrui
// CHECK-NEXT: return
func.func @shift_alone(%x: vector<4xi32>) -> vector<4xi32> {
  %k = arith.constant dense<5> : vector<4xi32>
  %s = arith.shrui %x, %k : vector<4xi32>
  return %s : vector<4xi32>
}

// The absolute value written as a test, a negation and a select: `abs`.
// CHECK-LABEL: func.func @absolute_value
// CHECK-NEXT: hydride_arm.vabsq_s32"(%arg0)
// CHECK-NEXT: return
func.func @absolute_value(%x: vector<4xi32>) -> vector<4xi32> {
  %zero = arith.constant dense<0> : vector<4xi32>
  %neg = arith.cmpi slt, %x, %zero : vector<4xi32>
  %minus = arith.subi %zero, %x : vector<4xi32>
  %r = arith.select %neg, %minus, %x : vector<4xi1>, vector<4xi32>
  return %r : vector<4xi32>
}
