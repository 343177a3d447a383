// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128
// Found by `scripts/fuzz --seed 5` (program 41) at hexagon-hvx128: mismatch: 1000 of 1000 inputs differ
// Minimized from 19 to 2 ops.
func.func @p41(%a0: vector<128xi8>, %a1: vector<128xi8>, %a2: vector<64xi16>, %a3: vector<64xi16>, %a4: vector<64xi16>, %a5: vector<64xi16>) -> vector<64xi32> {
  %v18 = arith.extsi %a5 : vector<64xi16> to vector<64xi31>
  %v19 = arith.extui %v18 : vector<64xi31> to vector<64xi32>
  return %v19 : vector<64xi32>
}
