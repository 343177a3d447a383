// RUN: %hydride_opt %s --canonicalize | FileCheck %s
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
