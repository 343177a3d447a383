// The x86 shifts by an immediate as target ops, immediates past the
// element's width included: lowered by convert-hydride-x86-to-llvm in
// immediate-shifts.test.
func.func @srai_epi16_3(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_srai_epi16"(%a) {imm8 = 3 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi16_15(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_srai_epi16"(%a) {imm8 = 15 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi16_200(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_srai_epi16"(%a) {imm8 = 200 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srli_epi16_9(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_srli_epi16"(%a) {imm8 = 9 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srli_epi16_16(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_srli_epi16"(%a) {imm8 = 16 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @slli_epi16_1(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_slli_epi16"(%a) {imm8 = 1 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @slli_epi16_31(%a: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_slli_epi16"(%a) {imm8 = 31 : i32} : (vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi32_31(%a: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_srai_epi32"(%a) {imm8 = 31 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @srli_epi32_5(%a: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_srli_epi32"(%a) {imm8 = 5 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @slli_epi32_32(%a: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_slli_epi32"(%a) {imm8 = 32 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @srli_epi64_63(%a: vector<4xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_srli_epi64"(%a) {imm8 = 63 : i32} : (vector<4xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}

func.func @slli_epi64_7(%a: vector<4xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_slli_epi64"(%a) {imm8 = 7 : i32} : (vector<4xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}

func.func @slli_epi64_255(%a: vector<4xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_slli_epi64"(%a) {imm8 = 255 : i32} : (vector<4xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}
