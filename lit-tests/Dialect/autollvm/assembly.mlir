// The assembly format of autollvm ops: what it prints parses back to the
// same ops, and the generic form prints in it.
// RUN: %mlir_opt %load_hydride %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %s | %mlir_opt %load_hydride | FileCheck %s
// RUN: %mlir_opt %load_hydride %s --mlir-print-op-generic | %mlir_opt %load_hydride | FileCheck %s

// One type where the operands and the result share it in every variant.
// CHECK-LABEL: func.func @one_type
// CHECK: autollvm.add_sat_s %arg0, %arg1 {masking = "none"} : vector<32xi16>
func.func @one_type(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %0 = autollvm.add_sat_s %a, %b {masking = "none"} : vector<32xi16>
  return %0 : vector<32xi16>
}

// A mask form's operands after their names, each with its type.
// CHECK-LABEL: func.func @merge_masked
// CHECK: autollvm.add_sat_s %arg0, %arg1 passthrough %arg2 : vector<16xi16> mask %arg3 : vector<16xi1> {masking = "merge"} : vector<16xi16>
func.func @merge_masked(%a: vector<16xi16>, %b: vector<16xi16>, %src: vector<16xi16>, %k: vector<16xi1>) -> vector<16xi16> {
  %0 = "autollvm.add_sat_s"(%a, %b, %src, %k) {masking = "merge", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<16xi1>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// CHECK-LABEL: func.func @zero_masked
// CHECK: autollvm.add_sat_s %arg0, %arg1 mask %arg2 : vector<64xi1> {masking = "zero"} : vector<64xi8>
func.func @zero_masked(%a: vector<64xi8>, %b: vector<64xi8>, %k: vector<64xi1>) -> vector<64xi8> {
  %0 = autollvm.add_sat_s %a, %b mask %k : vector<64xi1> {masking = "zero"} : vector<64xi8>
  return %0 : vector<64xi8>
}

// An op whose result type differs from its operands' writes its function type.
// CHECK-LABEL: func.func @function_type
// CHECK: autollvm.dot_s %arg0, %arg1 {masking = "none"} : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
func.func @function_type(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<8xi32> {
  %0 = autollvm.dot_s %a, %b {masking = "none"} : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
  return %0 : vector<8xi32>
}
