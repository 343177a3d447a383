// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// valignbi takes a 3-bit immediate: 8 is no instruction.
func.func @immediate_out_of_range(%u: vector<128xi8>, %v: vector<128xi8>) -> vector<128xi8> {
  // expected-error @+1 {{implements no instruction with attributes {ui = 8}}}
  %0 = "hydride_hvx.v6_valignbi"(%u, %v) { ui = 8 : i32 } : (vector<128xi8>, vector<128xi8>) -> vector<128xi8>
  return %0 : vector<128xi8>
}

// -----

// vrmpybusi's immediate selects one of two halves: 0 or 1.
func.func @immediate_above_one(%uu: vector<256xi8>, %r: i32) -> vector<64xi32> {
  // expected-error @+1 {{implements no instruction with attributes {ui = 2}}}
  %0 = "hydride_hvx.v6_vrmpybusi"(%uu, %r) { ui = 2 : i32 } : (vector<256xi8>, i32) -> vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

// An immediate must be an integer.
func.func @immediate_not_integer(%u: vector<128xi8>, %v: vector<128xi8>) -> vector<128xi8> {
  // expected-error @+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %0 = "hydride_hvx.v6_valignbi"(%u, %v) { ui = "one" } : (vector<128xi8>, vector<128xi8>) -> vector<128xi8>
  return %0 : vector<128xi8>
}

// -----

// HVX vectors are 128 bytes: a 64-byte vector is no operand.
func.func @half_length_vector(%u: vector<32xi16>, %v: vector<32xi16>) -> vector<32xi16> {
  // expected-error @+1 {{expected 'vector<64xi16>' but got 'vector<32xi16>'}}
  %0 = "hydride_hvx.v6_vaddhsat"(%u, %v) : (vector<32xi16>, vector<32xi16>) -> vector<32xi16>
  return %0 : vector<32xi16>
}

// -----

// A compare yields a Q predicate, one bit per byte: not a vector of words.
func.func @compare_result_not_predicate(%u: vector<32xi32>, %v: vector<32xi32>) -> vector<32xi32> {
  // expected-error @+1 {{expected 'vector<128xi1>' but got 'vector<32xi32>'}}
  %0 = "hydride_hvx.v6_vgtw"(%u, %v) : (vector<32xi32>, vector<32xi32>) -> vector<32xi32>
  return %0 : vector<32xi32>
}

// -----

// The widening multiply writes a register pair: 128 halfwords.
func.func @widening_result_single_register(%u: vector<128xi8>, %v: vector<128xi8>) -> vector<64xi16> {
  // expected-error @+1 {{expected 'vector<128xi16>' but got 'vector<64xi16>'}}
  %0 = "hydride_hvx.v6_vmpybv"(%u, %v) : (vector<128xi8>, vector<128xi8>) -> vector<64xi16>
  return %0 : vector<64xi16>
}

// -----

// vaddcarry reads its carry-in predicate: two operands are not enough.
func.func @carry_without_predicate(%u: vector<32xi32>, %v: vector<32xi32>) -> vector<36xi32> {
  // expected-error @+1 {{expects exactly 3 operands, but got 2}}
  %0 = "hydride_hvx.v6_vaddcarry"(%u, %v) : (vector<32xi32>, vector<32xi32>) -> vector<36xi32>
  return %0 : vector<36xi32>
}
