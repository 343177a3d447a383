// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-autollvm)' %s | FileCheck %s

// An autollvm op expands as the instruction its variant names: its
// attributes pick the member (the high half of a product, `bit = 31`),
// its types the width.

// CHECK-LABEL: func.func @high_half
// CHECK: arith.extsi %arg0 : vector<32xi16> to vector<32xi32>
// CHECK: arith.muli
// CHECK: arith.constant dense<16> : vector<32xi32>
// CHECK: arith.trunci {{.*}} : vector<32xi32> to vector<32xi16>
// CHECK-NOT: autollvm.
func.func @high_half(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %0 = autollvm.mul_s %a, %b {bit = 31 : i32} : vector<32xi16>
  return %0 : vector<32xi16>
}

// CHECK-LABEL: func.func @saturating
// CHECK: arith.extsi %arg0 : vector<8xi16> to vector<8xi17>
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK-NOT: autollvm.
func.func @saturating(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %0 = autollvm.add_sat_s %a, %b : vector<8xi16>
  return %0 : vector<8xi16>
}

// CHECK-LABEL: func.func @dot_accumulate
// CHECK: vector.multi_reduction <add>, {{.*}}, %arg2 [1] : vector<8x4xi32> to vector<8xi32>
func.func @dot_accumulate(%a: vector<32xi8>, %b: vector<32xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %0 = autollvm.dot_acc_su_widen %a, %b, %acc : (vector<32xi8>, vector<32xi8>, vector<8xi32>) -> vector<8xi32>
  return %0 : vector<8xi32>
}
