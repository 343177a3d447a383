// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128
// Found by `scripts/fuzz --seed 2` (program 76) at hexagon-hvx128: crash: mlir-translate exit 1: <stdin>:63:11: error: intrinsic call returns <1 x i32> but "llvm.hexagon.V6.extractw.128B" actually returns i32 <stdin>:63:11: error: LLVM Translation failed for operation: llvm.call_intrinsic
// Minimized from 24 to 4 ops.
func.func @p76(%a0: vector<16xi16>, %a1: vector<8xi32>, %a2: vector<4xi8>, %a3: vector<8xi32>, %a4: vector<4xi8>) -> vector<4xi8> {
  %v20 = arith.constant dense<127> : vector<4xi8>
  %v22:2 = arith.mulsi_extended %a4, %v20 : vector<4xi8>
  %v23 = arith.cmpi ult, %v22#1, %v22#1 : vector<4xi8>
  %v24 = arith.select %v23, %a4, %a2 : vector<4xi1>, vector<4xi8>
  return %v24 : vector<4xi8>
}
