// Rotations and funnel shifts by an immediate as the x86 pseudocode
// defines them (the count modulo the element's width), written in
// `arith`: the reference of immediate-rotations.test.

func.func @rol_epi32_3(%a: vector<16xi32>) -> vector<16xi32> {
  %s = arith.constant dense<3> : vector<16xi32>
  %t = arith.constant dense<29> : vector<16xi32>
  %x = arith.shli %a, %s : vector<16xi32>
  %y = arith.shrui %a, %t : vector<16xi32>
  %r = arith.ori %x, %y : vector<16xi32>
  return %r : vector<16xi32>
}

func.func @rol_epi32_40(%a: vector<16xi32>) -> vector<16xi32> {
  %s = arith.constant dense<8> : vector<16xi32>
  %t = arith.constant dense<24> : vector<16xi32>
  %x = arith.shli %a, %s : vector<16xi32>
  %y = arith.shrui %a, %t : vector<16xi32>
  %r = arith.ori %x, %y : vector<16xi32>
  return %r : vector<16xi32>
}

func.func @rol_epi32_0(%a: vector<16xi32>) -> vector<16xi32> {
  return %a : vector<16xi32>
}

func.func @ror_epi64_1(%a: vector<2xi64>) -> vector<2xi64> {
  %s = arith.constant dense<1> : vector<2xi64>
  %t = arith.constant dense<63> : vector<2xi64>
  %x = arith.shrui %a, %s : vector<2xi64>
  %y = arith.shli %a, %t : vector<2xi64>
  %r = arith.ori %x, %y : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @ror_epi64_255(%a: vector<2xi64>) -> vector<2xi64> {
  %s = arith.constant dense<63> : vector<2xi64>
  %t = arith.constant dense<1> : vector<2xi64>
  %x = arith.shrui %a, %s : vector<2xi64>
  %y = arith.shli %a, %t : vector<2xi64>
  %r = arith.ori %x, %y : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @ror_epi32_17(%a: vector<8xi32>) -> vector<8xi32> {
  %s = arith.constant dense<17> : vector<8xi32>
  %t = arith.constant dense<15> : vector<8xi32>
  %x = arith.shrui %a, %s : vector<8xi32>
  %y = arith.shli %a, %t : vector<8xi32>
  %r = arith.ori %x, %y : vector<8xi32>
  return %r : vector<8xi32>
}

func.func @shldi_epi16_3(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %s = arith.constant dense<3> : vector<16xi16>
  %t = arith.constant dense<13> : vector<16xi16>
  %x = arith.shli %a, %s : vector<16xi16>
  %y = arith.shrui %b, %t : vector<16xi16>
  %r = arith.ori %x, %y : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @shldi_epi16_21(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %s = arith.constant dense<5> : vector<16xi16>
  %t = arith.constant dense<11> : vector<16xi16>
  %x = arith.shli %a, %s : vector<16xi16>
  %y = arith.shrui %b, %t : vector<16xi16>
  %r = arith.ori %x, %y : vector<16xi16>
  return %r : vector<16xi16>
}

func.func @shrdi_epi64_200(%a: vector<8xi64>, %b: vector<8xi64>) -> vector<8xi64> {
  %s = arith.constant dense<8> : vector<8xi64>
  %t = arith.constant dense<56> : vector<8xi64>
  %x = arith.shrui %a, %s : vector<8xi64>
  %y = arith.shli %b, %t : vector<8xi64>
  %r = arith.ori %x, %y : vector<8xi64>
  return %r : vector<8xi64>
}

func.func @shrdi_epi32_31(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %s = arith.constant dense<31> : vector<4xi32>
  %t = arith.constant dense<1> : vector<4xi32>
  %x = arith.shrui %a, %s : vector<4xi32>
  %y = arith.shli %b, %t : vector<4xi32>
  %r = arith.ori %x, %y : vector<4xi32>
  return %r : vector<4xi32>
}
