// The assembly format of autollvm ops: what it prints parses back to the
// same ops, and the generic form prints in it.
// RUN: %mlir_opt %load_hydride %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %s | %mlir_opt %load_hydride | FileCheck %s
// RUN: %mlir_opt %load_hydride %s --mlir-print-op-generic | %mlir_opt %load_hydride | FileCheck %s
// RUN: %mlir_opt %load_hydride %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// One type where the operands and the result share it in every variant; no
// mask, so nothing else is written.
// CHECK-LABEL: func.func @one_type
// CHECK: autollvm.add_sat_s %arg0, %arg1 : vector<32xi16>{{$}}
func.func @one_type(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %0 = autollvm.add_sat_s %a, %b : vector<32xi16>
  return %0 : vector<32xi16>
}

// `masking` is an enum attribute; its default case, `none`, is not written
// even where the input spells it out (the generic form, whose properties
// hold every attribute, writes it).
// CHECK-LABEL: func.func @default_case
// CHECK: autollvm.add_sat_s %arg0, %arg1 : vector<32xi16>{{$}}
// GENERIC-LABEL: sym_name = "default_case"
// GENERIC: "autollvm.add_sat_s"({{[^)]*}}) <{masking = #autollvm.masking<none>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
func.func @default_case(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %0 = "autollvm.add_sat_s"(%a, %b) {masking = #autollvm.masking<none>, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (vector<32xi16>, vector<32xi16>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// A mask form's operands after their names, each with its type, and its case.
// CHECK-LABEL: func.func @merge_masked
// CHECK: autollvm.add_sat_s %arg0, %arg1 passthrough %arg2 : vector<16xi16> mask %arg3 : vector<16xi1> masking<merge> : vector<16xi16>{{$}}
// GENERIC-LABEL: sym_name = "merge_masked"
// GENERIC: masking = #autollvm.masking<merge>
func.func @merge_masked(%a: vector<16xi16>, %b: vector<16xi16>, %src: vector<16xi16>, %k: vector<16xi1>) -> vector<16xi16> {
  %0 = "autollvm.add_sat_s"(%a, %b, %src, %k) {masking = #autollvm.masking<merge>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<16xi1>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// CHECK-LABEL: func.func @zero_masked
// CHECK: autollvm.add_sat_s %arg0, %arg1 mask %arg2 : vector<64xi1> masking<zero> : vector<64xi8>{{$}}
func.func @zero_masked(%a: vector<64xi8>, %b: vector<64xi8>, %k: vector<64xi1>) -> vector<64xi8> {
  %0 = autollvm.add_sat_s %a, %b mask %k : vector<64xi1> masking<zero> : vector<64xi8>
  return %0 : vector<64xi8>
}

// Operands that share a type the result does not have: `operands to result`.
// CHECK-LABEL: func.func @operands_to_result
// CHECK: autollvm.dot_s %arg0, %arg1 : vector<16xi16> to vector<8xi32>{{$}}
func.func @operands_to_result(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<8xi32> {
  %0 = autollvm.dot_s %a, %b : vector<16xi16> to vector<8xi32>
  return %0 : vector<8xi32>
}

// Operands of different types: the op's function type, and a mask form
// merging from one of its own operands.
// CHECK-LABEL: func.func @function_type
// CHECK: autollvm.dot_acc_s_widen %arg0, %arg1, %arg2 mask %arg3 masking<merge_a2> : (vector<32xi16>, vector<32xi16>, vector<16xi32>, vector<16xi1>) -> vector<16xi32>{{$}}
func.func @function_type(%a: vector<32xi16>, %b: vector<32xi16>, %acc: vector<16xi32>, %k: vector<16xi1>) -> vector<16xi32> {
  %0 = autollvm.dot_acc_s_widen %a, %b, %acc mask %k masking<merge_a2> : (vector<32xi16>, vector<32xi16>, vector<16xi32>, vector<16xi1>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// Immediates are named by what they do: `shift` is how far `shr_by_imm_s`
// shifts (its instructions' `imm8`, `#n`), not `a0`.
// CHECK-LABEL: func.func @immediate_by_role
// CHECK: autollvm.shr_by_imm_s %arg0 {{{.*}}shift = 3 : i32{{.*}}} : vector<16xi16>{{$}}
func.func @immediate_by_role(%a: vector<16xi16>) -> vector<16xi16> {
  %0 = "autollvm.shr_by_imm_s"(%a) {shift = 3 : i32, constant = 15 : i32, constant_2 = 65535 : i32, shift_imm_bits = 8 : i32, operandSegmentSizes = array<i32: 1, 0, 0>} : (vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}
