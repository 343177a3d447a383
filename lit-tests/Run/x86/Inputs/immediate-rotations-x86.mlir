// x86 rotations and funnel shifts by an immediate as target ops, counts
// past the element's width and 0 included: lowered by
// convert-hydride-x86-to-llvm in immediate-rotations.test.

func.func @rol_epi32_3(%a: vector<16xi32>) -> vector<16xi32> {
  %r = "hydride_x86.mm512_rol_epi32"(%a) {imm8 = 3 : i32} : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

func.func @rol_epi32_40(%a: vector<16xi32>) -> vector<16xi32> {
  %r = "hydride_x86.mm512_rol_epi32"(%a) {imm8 = 40 : i32} : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

func.func @rol_epi32_0(%a: vector<16xi32>) -> vector<16xi32> {
  %r = "hydride_x86.mm512_rol_epi32"(%a) {imm8 = 0 : i32} : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

func.func @ror_epi64_1(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_x86.mm_ror_epi64"(%a) {imm8 = 1 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

func.func @ror_epi64_255(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_x86.mm_ror_epi64"(%a) {imm8 = 255 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

func.func @ror_epi32_17(%a: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_ror_epi32"(%a) {imm8 = 17 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @shldi_epi16_3(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_shldi_epi16"(%a, %b) {imm8 = 3 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @shldi_epi16_21(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_shldi_epi16"(%a, %b) {imm8 = 21 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @shrdi_epi64_200(%a: vector<8xi64>, %b: vector<8xi64>) -> vector<8xi64> {
  %r = "hydride_x86.mm512_shrdi_epi64"(%a, %b) {imm8 = 200 : i32} : (vector<8xi64>, vector<8xi64>) -> vector<8xi64>
  return %r : vector<8xi64>
}

func.func @shrdi_epi32_31(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_x86.mm_shrdi_epi32"(%a, %b) {imm8 = 31 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}
