// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// SSHR shifts bytes right by 1 to 8: 9 is no instruction.
func.func @shift_out_of_range(%a: vector<8xi8>) -> vector<8xi8> {
  // expected-error @+1 {{implements no instruction with attributes {n = 9}}}
  %0 = "hydride_arm.vshr_n_s8"(%a) { n = 9 : i32 } : (vector<8xi8>) -> vector<8xi8>
  return %0 : vector<8xi8>
}

// -----

// A right shift by 0 does not exist either (the range starts at 1).
func.func @shift_below_range(%a: vector<8xi8>) -> vector<8xi8> {
  // expected-error @+1 {{implements no instruction with attributes {n = 0}}}
  %0 = "hydride_arm.vshr_n_s8"(%a) { n = 0 : i32 } : (vector<8xi8>) -> vector<8xi8>
  return %0 : vector<8xi8>
}

// -----

// SDOT by element indexes one of two 32-bit groups of a 64-bit register.
func.func @lane_out_of_range(%r: vector<4xi32>, %a: vector<16xi8>, %b: vector<8xi8>) -> vector<4xi32> {
  // expected-error @+1 {{implements no instruction with attributes {lane = 2}}}
  %0 = "hydride_arm.vdotq_lane_s32"(%r, %a, %b) { lane = 2 : i32 } : (vector<4xi32>, vector<16xi8>, vector<8xi8>) -> vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

// An immediate must be an integer.
func.func @immediate_not_integer(%a: vector<8xi8>) -> vector<8xi8> {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %0 = "hydride_arm.vshr_n_s8"(%a) { n = "three" } : (vector<8xi8>) -> vector<8xi8>
  return %0 : vector<8xi8>
}

// -----

// SQADD on sixteen bytes: eight halfwords are another instruction.
func.func @wrong_operand_type(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<16xi8> {
  // expected-error @+1 {{expected 'vector<16xi8>' but got 'vector<8xi16>'}}
  %0 = "hydride_arm.vqaddq_s8"(%a, %b) : (vector<8xi16>, vector<8xi16>) -> vector<16xi8>
  return %0 : vector<16xi8>
}

// -----

// The widening multiply's result has twice the element width.
func.func @wrong_result_type(%a: vector<8xi8>, %b: vector<8xi8>) -> vector<8xi8> {
  // expected-error @+1 {{expected 'vector<8xi16>' but got 'vector<8xi8>'}}
  %0 = "hydride_arm.vmull_s8"(%a, %b) : (vector<8xi8>, vector<8xi8>) -> vector<8xi8>
  return %0 : vector<8xi8>
}

// -----

func.func @wrong_arity(%a: vector<16xi8>) -> vector<16xi8> {
  // expected-error @+1 {{expects exactly 2 operands, but got 1}}
  %0 = "hydride_arm.vqaddq_s8"(%a) : (vector<16xi8>) -> vector<16xi8>
  return %0 : vector<16xi8>
}
