// REQUIRES: host-x86-avx512
// RUN: %fuzz --replay %s --target x86-avx512
// Found by `scripts/fuzz --seed 1` (program 35) at x86-avx512: mismatch: 1000 of 1000 inputs differ
// Minimized from 17 to 5 ops.
func.func @p35(%a0: vector<8xi8>, %a1: vector<16xi16>, %a2: vector<16xi16>, %a3: vector<16xi32>, %a4: vector<16xi32>, %a5: vector<16xi32>, %a6: vector<16xi32>, %a7: vector<16xi16>) -> vector<32xi16> {
  %v11 = vector.shuffle %a7, %a1 [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xi16>, vector<16xi16>
  %v12 = arith.cmpi slt, %v11, %v11 : vector<32xi16>
  %v13 = arith.select %v12, %v11, %v11 : vector<32xi1>, vector<32xi16>
  %v14 = arith.constant dense<8> : vector<32xi16>
  %v15 = arith.shli %v13, %v14 : vector<32xi16>
  return %v15 : vector<32xi16>
}
