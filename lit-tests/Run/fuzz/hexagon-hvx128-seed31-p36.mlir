// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128
// Found by `scripts/fuzz --seed 31` (program 36) at hexagon-hvx128: mismatch: 996 of 1000 inputs differ
// Minimized from 6 to 5 ops. The mixed-sign form of program 4: the same repeat of 32 bytes that
// llc 22 miscompiled on Hexagon, now repeated as words.
func.func @p36(%a0: vector<32xi8>, %a1: vector<8xi32>) -> vector<8xi32> {
  %v1 = arith.extsi %a0 : vector<32xi8> to vector<32xi32>
  %v2 = arith.extui %a0 : vector<32xi8> to vector<32xi32>
  %v3 = arith.muli %v1, %v2 : vector<32xi32>
  %v4 = vector.shape_cast %v3 : vector<32xi32> to vector<8x4xi32>
  %v6 = vector.multi_reduction <add>, %v4, %a1 [1] : vector<8x4xi32> to vector<8xi32>
  return %v6 : vector<8xi32>
}
