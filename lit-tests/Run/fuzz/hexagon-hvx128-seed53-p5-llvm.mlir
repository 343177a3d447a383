// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128 | FileCheck %s
// Found by `scripts/fuzz --seed 53` (program 5) at hexagon-hvx128: mismatch: 997 of 1000 inputs differ.
// Minimized from 10 to 7 ops. The fault is LLVM 22's: llc -O2 for Hexagon drops the `+ 16384` of
// (sext(x) * zext(x) + 16384) >> 16 (one vmpy(v.h,v.uh), then the high halves by vpacko), which opt -O2
// keeps and llc -O0 computes; hydride's path (vshuff, vmpy-accumulate onto the constant, vasr)
// computes it, and agrees with LLVM's own path built at -O0. Once LLVM no longer miscompiles it, the
// paths agree.
// CHECK: hexagon-hvx128: {{ok$|llvm: LLVM's own path at -O2 differs from hydride's .* at -O0, which agrees with hydride's}}
func.func @p5(%a0: vector<64xi16>, %a1: vector<64xi16>) -> vector<64xi32> {
  %v1 = arith.extsi %a0 : vector<64xi16> to vector<64xi32>
  %v2 = arith.extui %a0 : vector<64xi16> to vector<64xi32>
  %v3 = arith.muli %v1, %v2 : vector<64xi32>
  %v4 = arith.constant dense<16384> : vector<64xi32>
  %v5 = arith.addi %v3, %v4 : vector<64xi32>
  %v6 = arith.constant dense<16> : vector<64xi32>
  %v7 = arith.shrsi %v5, %v6 : vector<64xi32>
  return %v7 : vector<64xi32>
}
