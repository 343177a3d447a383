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
