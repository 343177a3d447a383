// Shifts by an immediate as the x86 pseudocode defines them (a count past
// the element's width gives zeros, or sign bits for arithmetic shifts),
// written in `arith`: the reference of immediate-shifts.test.
func.func @srai_epi16_3(%a: vector<16xi16>) -> vector<16xi16> {
  %c = arith.constant dense<3> : vector<16xi16>
  %r = arith.shrsi %a, %c : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi16_15(%a: vector<16xi16>) -> vector<16xi16> {
  %c = arith.constant dense<15> : vector<16xi16>
  %r = arith.shrsi %a, %c : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi16_200(%a: vector<16xi16>) -> vector<16xi16> {
  %c = arith.constant dense<15> : vector<16xi16>
  %r = arith.shrsi %a, %c : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srli_epi16_9(%a: vector<16xi16>) -> vector<16xi16> {
  %c = arith.constant dense<9> : vector<16xi16>
  %r = arith.shrui %a, %c : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srli_epi16_16(%a: vector<16xi16>) -> vector<16xi16> {
  %r = arith.constant dense<0> : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @slli_epi16_1(%a: vector<16xi16>) -> vector<16xi16> {
  %c = arith.constant dense<1> : vector<16xi16>
  %r = arith.shli %a, %c : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @slli_epi16_31(%a: vector<16xi16>) -> vector<16xi16> {
  %r = arith.constant dense<0> : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @srai_epi32_31(%a: vector<8xi32>) -> vector<8xi32> {
  %c = arith.constant dense<31> : vector<8xi32>
  %r = arith.shrsi %a, %c : vector<8xi32>
  return %r : vector<8xi32>
}

func.func @srli_epi32_5(%a: vector<8xi32>) -> vector<8xi32> {
  %c = arith.constant dense<5> : vector<8xi32>
  %r = arith.shrui %a, %c : vector<8xi32>
  return %r : vector<8xi32>
}

func.func @slli_epi32_32(%a: vector<8xi32>) -> vector<8xi32> {
  %r = arith.constant dense<0> : vector<8xi32>
  return %r : vector<8xi32>
}

func.func @srli_epi64_63(%a: vector<4xi64>) -> vector<4xi64> {
  %c = arith.constant dense<63> : vector<4xi64>
  %r = arith.shrui %a, %c : vector<4xi64>
  return %r : vector<4xi64>
}

func.func @slli_epi64_7(%a: vector<4xi64>) -> vector<4xi64> {
  %c = arith.constant dense<7> : vector<4xi64>
  %r = arith.shli %a, %c : vector<4xi64>
  return %r : vector<4xi64>
}

func.func @slli_epi64_255(%a: vector<4xi64>) -> vector<4xi64> {
  %r = arith.constant dense<0> : vector<4xi64>
  return %r : vector<4xi64>
}
