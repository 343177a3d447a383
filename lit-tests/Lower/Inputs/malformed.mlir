func.func @broken(%a: vector<16xi8>) -> vector<16xi8> {
  %0 = arith.addi %a, %a : vector<16xi8>
  return %0 : vector<16xi16>
}
