// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// PSRAW's immediate is one byte: rejected by the compiled verifier.
func.func @immediate_out_of_range(%a: vector<8xi16>) -> vector<8xi16> {
  // expected-error @+1 {{implements no instruction with attributes {imm8 = 300}}}
  %0 = "hydride_x86.mm_srai_epi16"(%a) { imm8 = 300 : i32 } : (vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// -----

// An immediate must be an integer.
func.func @immediate_not_integer(%a: vector<8xi16>) -> vector<8xi16> {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %0 = "hydride_x86.mm_srai_epi16"(%a) { imm8 = "three" } : (vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// -----

// PADDSW takes 16-bit lanes, not bytes.
func.func @wrong_operand_type(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  // expected-error @+1 {{expected 'vector<8xi16>' but got 'vector<16xi8>'}}
  %0 = "hydride_x86.mm_adds_epi16"(%a, %b) : (vector<16xi8>, vector<16xi8>) -> vector<16xi8>
  return %0 : vector<16xi8>
}

// -----

func.func @wrong_arity(%a: vector<8xi16>) -> vector<8xi16> {
  // expected-error @+1 {{expects exactly 2 operands, but got 1}}
  %0 = "hydride_x86.mm_adds_epi16"(%a) : (vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}
