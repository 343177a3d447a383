// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// A parameter value no member of the class implements.
func.func @bad_parameter() -> vector<4xi64> {
  // expected-error @+1 {{attribute 'result_width' failed to satisfy constraint: arbitrary integer attribute one of 128, 256, 512}}
  %0 = "autollvm.zero"() { result_width = 320 : i32, result_elem_width = 256 : i32 } : () -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// A result type no member produces.
func.func @bad_type() -> vector<3xi64> {
  // expected-error @+1 {{result #0 must be vector of 32-bit signless integer values of length 16 or}}
  %0 = "autollvm.zero"() { result_width = 256 : i32, result_elem_width = 256 : i32 } : () -> vector<3xi64>
  return %0 : vector<3xi64>
}

// -----

// A missing parameter.
func.func @missing_parameter() -> vector<4xi64> {
  // expected-error @+1 {{requires attribute 'result_elem_width'}}
  %0 = "autollvm.zero"() { result_width = 256 : i32 } : () -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// Each attribute and type is one some member uses, but no member has them
// together: 32 lanes of i16 with 8-bit elements.
func.func @bad_combination(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{implements no instruction with attributes}}
  %0 = "autollvm.add"(%a, %b) { masking = "none", loop_bound = 31 : i32, a0_elem_width = 8 : i32, bit = 512 : i32, constant = 7 : i32, a0_width = 512 : i32, result_width = 512 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0> } : (vector<32xi16>, vector<32xi16>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// Zero masking takes a mask and no pass-through.
func.func @masking_without_its_operands(%a: vector<32xi16>, %b: vector<32xi16>, %src: vector<32xi16>, %k: vector<32xi1>) -> vector<32xi16> {
  // expected-error @+1 {{implements no instruction with attributes}}
  %0 = "autollvm.add"(%a, %b, %src, %k) { masking = "zero", loop_bound = 31 : i32, a0_elem_width = 16 : i32, bit = 512 : i32, constant = 7 : i32, a0_width = 512 : i32, result_width = 512 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 1> } : (vector<32xi16>, vector<32xi16>, vector<32xi16>, vector<32xi1>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// An immediate beyond the bits the instruction decodes.
func.func @immediate_out_of_range(%a: vector<16xi16>) -> vector<16xi16> {
  // expected-error @+1 {{implements no instruction with attributes}}
  %0 = "autollvm.shr_by_imm_s"(%a) { a0 = 256 : i32, masking = "none", loop_bound = 15 : i32, constant = 15 : i32, constant_2 = 65535 : i32, a0_imm_bits = 8 : i32, a1_width = 256 : i32, operandSegmentSizes = array<i32: 1, 0, 0> } : (vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}
