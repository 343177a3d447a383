// x86 data movements by an immediate as target ops: lowered by
// convert-hydride-x86-to-llvm in immediate-movements.test.
func.func @shuffle_epi32_1b(%a0: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_shuffle_epi32"(%a0) {imm8 = 27 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @shuffle_epi32_d8(%a0: vector<8xi32>) -> vector<8xi32> {
  %r = "hydride_x86.mm256_shuffle_epi32"(%a0) {imm8 = 216 : i32} : (vector<8xi32>) -> vector<8xi32>
  return %r : vector<8xi32>
}

func.func @alignr_epi8_3(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %r = "hydride_x86.mm256_alignr_epi8"(%a0, %a1) {imm8 = 3 : i32} : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
  return %r : vector<32xi8>
}

func.func @alignr_epi8_20(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %r = "hydride_x86.mm256_alignr_epi8"(%a0, %a1) {imm8 = 20 : i32} : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
  return %r : vector<32xi8>
}

func.func @alignr_epi8_31(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %r = "hydride_x86.mm256_alignr_epi8"(%a0, %a1) {imm8 = 31 : i32} : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
  return %r : vector<32xi8>
}

func.func @bslli_5(%a0: vector<32xi8>) -> vector<32xi8> {
  %x = vector.bitcast %a0 : vector<32xi8> to vector<4xi64>
  %y = "hydride_x86.mm256_bslli_epi128"(%x) {imm8 = 5 : i32} : (vector<4xi64>) -> vector<4xi64>
  %r = vector.bitcast %y : vector<4xi64> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @bslli_16(%a0: vector<32xi8>) -> vector<32xi8> {
  %x = vector.bitcast %a0 : vector<32xi8> to vector<4xi64>
  %y = "hydride_x86.mm256_bslli_epi128"(%x) {imm8 = 16 : i32} : (vector<4xi64>) -> vector<4xi64>
  %r = vector.bitcast %y : vector<4xi64> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @blend_epi16_a5(%a0: vector<16xi16>, %a1: vector<16xi16>) -> vector<16xi16> {
  %r = "hydride_x86.mm256_blend_epi16"(%a0, %a1) {imm8 = 165 : i32} : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %r : vector<16xi16>
}

func.func @permute4x64_4e(%a0: vector<4xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_permute4x64_epi64"(%a0) {imm8 = 78 : i32} : (vector<4xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}
