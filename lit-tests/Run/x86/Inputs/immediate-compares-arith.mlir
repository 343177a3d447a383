// The same comparisons written as `arith.cmpi` (3 is false, 7 true): the
// reference of immediate-compares.test.
func.func @epi32_0(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi eq, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_1(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi slt, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_2(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi sle, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_3(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.constant dense<false> : vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_4(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi ne, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_5(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi sge, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_6(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi sgt, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi32_7(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.constant dense<true> : vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_0(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi eq, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_1(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi ult, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_2(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi ule, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_3(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.constant dense<false> : vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_4(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi ne, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_5(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi uge, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_6(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.cmpi ugt, %a, %b : vector<8xi32>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epu32_7(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi8> {
  %k = arith.constant dense<true> : vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @epi8_0(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi eq, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_1(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi slt, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_2(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi sle, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_3(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.constant dense<false> : vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_4(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi ne, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_5(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi sge, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_6(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.cmpi sgt, %a, %b : vector<64xi8>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epi8_7(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %k = arith.constant dense<true> : vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @epu16_0(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi eq, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_1(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi ult, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_2(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi ule, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_3(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.constant dense<false> : vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_4(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi ne, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_5(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi uge, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_6(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.cmpi ugt, %a, %b : vector<16xi16>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @epu16_7(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi8> {
  %k = arith.constant dense<true> : vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}
