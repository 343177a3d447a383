// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// A parameter value no member of the class implements.
func.func @bad_parameter() -> vector<4xi64> {
  // expected-error @+1 {{attribute 'result_elem_width' failed to satisfy constraint}}
  %0 = "autollvm.zero"() { result_elem_width = 320 : i32 } : () -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// A result type no member produces.
func.func @bad_type() -> vector<3xi64> {
  // expected-error @+1 {{result #0 must be vector of 32-bit signless integer values of length 16 or}}
  %0 = "autollvm.zero"() { result_elem_width = 256 : i32 } : () -> vector<3xi64>
  return %0 : vector<3xi64>
}

// -----

// A missing parameter (one the types do not fix).
func.func @missing_parameter() -> vector<4xi64> {
  // expected-error @+1 {{requires attribute 'result_elem_width'}}
  %0 = "autollvm.zero"() : () -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// Each type is one some member uses, but no member has them together: the
// operands and the result of an op whose every member reads and writes one
// type must have the same (the op's AllTypesMatch, which also lets its
// assembly name one type).
func.func @bad_combination(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<64xi8> {
  // expected-error @+1 {{failed to verify that all of {a0, a1, result} have same type}}
  %0 = "autollvm.add"(%a, %b) { operandSegmentSizes = array<i32: 1, 1, 0, 0> } : (vector<32xi16>, vector<32xi16>) -> vector<64xi8>
  return %0 : vector<64xi8>
}

// -----

// Zero masking takes a mask and no pass-through.
func.func @masking_without_its_operands(%a: vector<32xi16>, %b: vector<32xi16>, %src: vector<32xi16>, %k: vector<32xi1>) -> vector<32xi16> {
  // expected-error @+1 {{implements no instruction with attributes}}
  %0 = "autollvm.add"(%a, %b, %src, %k) { masking = #autollvm.masking<zero>, operandSegmentSizes = array<i32: 1, 1, 1, 1> } : (vector<32xi16>, vector<32xi16>, vector<32xi16>, vector<32xi1>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// An immediate beyond the bits the instruction decodes.
func.func @immediate_out_of_range(%a: vector<16xi16>) -> vector<16xi16> {
  // expected-error @+1 {{implements no instruction with attributes}}
  %0 = "autollvm.shr_by_imm_s"(%a) { shift = 256 : i32, constant = 15 : i32, constant_2 = 65535 : i32, shift_imm_bits = 8 : i32, operandSegmentSizes = array<i32: 1, 0, 0> } : (vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// -----

// The same op with its immediate in range: every parameter the types fix
// (lanes, element and vector widths) is left out.
func.func @immediate_in_range(%a: vector<16xi16>) -> vector<16xi16> {
  %0 = "autollvm.shr_by_imm_s"(%a) { shift = 3 : i32, constant = 15 : i32, constant_2 = 65535 : i32, shift_imm_bits = 8 : i32, operandSegmentSizes = array<i32: 1, 0, 0> } : (vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// -----

// `masking` is an enum attribute, not a string.
func.func @masking_as_a_string(%a: vector<32xi16>, %b: vector<32xi16>, %k: vector<32xi1>) -> vector<32xi16> {
  // expected-error @+1 {{attribute 'masking' failed to satisfy constraint}}
  %0 = "autollvm.add"(%a, %b, %k) { masking = "zero", operandSegmentSizes = array<i32: 1, 1, 0, 1> } : (vector<32xi16>, vector<32xi16>, vector<32xi1>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// A case of the enum the op's instructions do not have: `add` merges from a
// pass-through, never from one of its own operands.
func.func @masking_case_of_another_op(%a: vector<32xi16>, %b: vector<32xi16>, %k: vector<32xi1>) -> vector<32xi16> {
  // expected-error @+1 {{attribute 'masking' failed to satisfy constraint: mask form one of none, merge, zero}}
  %0 = autollvm.add %a, %b mask %k : vector<32xi1> masking<merge_a2> : vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// A case the enum does not have.
func.func @unknown_masking_case(%a: vector<32xi16>, %b: vector<32xi16>, %k: vector<32xi1>) -> vector<32xi16> {
  // expected-error @+2 {{expected ::autollvm::Masking to be one of: none, merge, merge_a0, merge_a1, merge_a2, zero}}
  // expected-error @+1 {{failed to parse Autollvm_MaskingAttr parameter 'value'}}
  %0 = autollvm.add %a, %b mask %k : vector<32xi1> masking<blend> : vector<32xi16>
  return %0 : vector<32xi16>
}
