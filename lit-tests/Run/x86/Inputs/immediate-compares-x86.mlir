// AVX-512 comparisons by a predicate immediate as target ops (every value of
// the immediate): lowered by convert-hydride-x86-to-llvm in
// immediate-compares.test.
func.func @epi32_0(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 0 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_1(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 1 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_2(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 2 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_3(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 3 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_4(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 4 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_5(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 5 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_6(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 6 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_7(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epi32_mask"(%a, %b) {imm8 = 7 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_0(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 0 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_1(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 1 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_2(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 2 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_3(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 3 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_4(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 4 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_5(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 5 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_6(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 6 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_7(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = "hydride_x86.mm256_cmp_epu32_mask"(%a, %b) {imm8 = 7 : i32} : (vector<8xi32>, vector<8xi32>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi8_0(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 0 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_1(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 1 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_2(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 2 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_3(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 3 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_4(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 4 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_5(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 5 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_6(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 6 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_7(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = "hydride_x86.mm512_cmp_epi8_mask"(%a, %b) {imm8 = 7 : i32} : (vector<64xi8>, vector<64xi8>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epu16_0(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 0 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_1(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 1 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_2(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 2 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_3(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 3 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_4(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 4 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_5(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 5 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_6(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 6 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_7(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = "hydride_x86.mm256_cmp_epu16_mask"(%a, %b) {imm8 = 7 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}
