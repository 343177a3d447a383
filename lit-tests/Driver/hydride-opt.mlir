// RUN: %hydride_opt %s --split-input-file --canonicalize | FileCheck %s
// hydride-opt has upstream passes and hydride's dialects registered.

// CHECK-LABEL: func.func @adds
// CHECK: "hydride_x86.mm_adds_epi16"(%arg0, %arg1)
// CHECK-NOT: arith.addi
func.func @adds(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %z = arith.constant dense<0> : vector<8xi16>
  %x = arith.addi %a, %z : vector<8xi16>
  %0 = "hydride_x86.mm_adds_epi16"(%x, %b) : (vector<8xi16>, vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// -----
// RUN: %hydride_opt %s --split-input-file --convert-autollvm-to-x86 | FileCheck %s --check-prefix=LOWER
// hydride-opt takes hydride's passes as flags.

// LOWER-LABEL: func.func @masked_add
// LOWER: "hydride_x86.mm512_maskz_add_epi32"(%arg2, %arg0, %arg1)
// LOWER-NOT: autollvm
func.func @masked_add(%a: vector<16xi32>, %b: vector<16xi32>, %k: vector<16xi1>) -> vector<16xi32> {
  %0 = "autollvm.add"(%a, %b, %k) { masking = #autollvm.masking<zero>, operandSegmentSizes = array<i32: 1, 1, 0, 1> } : (vector<16xi32>, vector<16xi32>, vector<16xi1>) -> vector<16xi32>
  return %0 : vector<16xi32>
}
