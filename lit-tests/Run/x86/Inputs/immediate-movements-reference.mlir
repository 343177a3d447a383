// The same data movements written as `vector.shuffle`s from the
// instructions' definitions: the reference of immediate-movements.test.
func.func @shuffle_epi32_1b(%a0: vector<8xi32>) -> vector<8xi32> {
  %z = arith.constant dense<0> : vector<8xi32>
  %r = vector.shuffle %a0, %z [3, 2, 1, 0, 7, 6, 5, 4] : vector<8xi32>, vector<8xi32>
  return %r : vector<8xi32>
}

func.func @shuffle_epi32_d8(%a0: vector<8xi32>) -> vector<8xi32> {
  %z = arith.constant dense<0> : vector<8xi32>
  %r = vector.shuffle %a0, %z [0, 2, 1, 3, 4, 6, 5, 7] : vector<8xi32>, vector<8xi32>
  return %r : vector<8xi32>
}

func.func @alignr_epi8_3(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %r = vector.shuffle %a0, %a1 [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 0, 1, 2, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 16, 17, 18] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @alignr_epi8_20(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %s = vector.shuffle %a0, %a1 [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  %z = arith.constant dense<0> : vector<32xi8>
  %keep = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false]> : vector<32xi1>
  %r = arith.select %keep, %s, %z : vector<32xi1>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @alignr_epi8_31(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %s = vector.shuffle %a0, %a1 [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  %z = arith.constant dense<0> : vector<32xi8>
  %keep = arith.constant dense<[true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false]> : vector<32xi1>
  %r = arith.select %keep, %s, %z : vector<32xi1>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @bslli_5(%a0: vector<32xi8>) -> vector<32xi8> {
  %z = arith.constant dense<0> : vector<32xi8>
  %r = vector.shuffle %a0, %z [32, 32, 32, 32, 32, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 32, 32, 32, 32, 32, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @bslli_16(%a0: vector<32xi8>) -> vector<32xi8> {
  %z = arith.constant dense<0> : vector<32xi8>
  %r = vector.shuffle %a0, %z [32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @blend_epi16_a5(%a0: vector<16xi16>, %a1: vector<16xi16>) -> vector<16xi16> {
  %r = vector.shuffle %a0, %a1 [16, 1, 18, 3, 4, 21, 6, 23, 24, 9, 26, 11, 12, 29, 14, 31] : vector<16xi16>, vector<16xi16>
  return %r : vector<16xi16>
}

func.func @permute4x64_4e(%a0: vector<4xi64>) -> vector<4xi64> {
  %z = arith.constant dense<0> : vector<4xi64>
  %r = vector.shuffle %a0, %z [2, 3, 0, 1] : vector<4xi64>, vector<4xi64>
  return %r : vector<4xi64>
}
