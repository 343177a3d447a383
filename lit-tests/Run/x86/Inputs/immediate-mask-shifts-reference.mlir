// The same shifts written as `vector.shuffle` with zeros: the reference of
// immediate-mask-shifts.test.

func.func @kshiftli_mask8_0(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_3(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 8, 9, 10, 11, 12] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_7(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 8] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_8(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_255(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask16_1(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_7(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 16, 17, 18, 19, 20, 21, 22, 23, 24] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_15(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_16(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_40(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask32_5(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask32_31(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask32_32(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask64_13(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_63(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_64(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_255(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask8_2(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [10, 11, 12, 13, 14, 15, 0, 0] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask8_7(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [15, 0, 0, 0, 0, 0, 0, 0] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask8_8(%a: vector<8xi8>) -> vector<8xi8> {
  %zero = arith.constant dense<0> : vector<8xi8>
  %one = arith.constant dense<1> : vector<8xi8>
  %m = arith.andi %a, %one : vector<8xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi8>, vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask16_9(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [25, 26, 27, 28, 29, 30, 31, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_15(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_16(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_100(%a: vector<16xi8>) -> vector<16xi8> {
  %zero = arith.constant dense<0> : vector<16xi8>
  %one = arith.constant dense<1> : vector<16xi8>
  %m = arith.andi %a, %one : vector<16xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xi8>, vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask32_1(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_17(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_31(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_32(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_255(%a: vector<32xi8>) -> vector<32xi8> {
  %zero = arith.constant dense<0> : vector<32xi8>
  %one = arith.constant dense<1> : vector<32xi8>
  %m = arith.andi %a, %one : vector<32xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi8>, vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask64_0(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_1(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_33(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_63(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_64(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_200(%a: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi8>
  %one = arith.constant dense<1> : vector<64xi8>
  %m = arith.andi %a, %one : vector<64xi8>
  %r = vector.shuffle %zero, %m [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<64xi8>, vector<64xi8>
  return %r : vector<64xi8>
}
