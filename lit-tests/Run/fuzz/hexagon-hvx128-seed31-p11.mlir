// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128
// Found by `scripts/fuzz --seed 31` (program 11) at hexagon-hvx128: crash: clang-22 exit 1: ld.lld: error: undefined symbol: __hexagon_divsi3 clang-22: error: hexagon-ld command failed with exit code 1 (use -v to see invocation)
// Minimized from 19 to 6 ops. hydride rewrote (15 >> 1) | 1, computed from constants alone, into
// target instructions, hiding the divisor 7 from LLVM, whose division by a variable needs a library
// routine on Hexagon. Ops computing from constants alone are now left to LLVM to fold.
func.func @p11(%a0: vector<64xi16>, %a1: vector<64xi32>, %a2: vector<64xi32>, %a3: vector<64xi32>, %a4: vector<64xi32>, %a5: vector<64xi32>) -> vector<64xi32> {
  %v6 = arith.constant dense<15> : vector<64xi32>
  %v15 = arith.constant dense<1> : vector<64xi32>
  %v16 = arith.shrui %v6, %v15 : vector<64xi32>
  %v17 = arith.constant dense<1> : vector<64xi32>
  %v18 = arith.ori %v16, %v17 : vector<64xi32>
  %v19 = arith.ceildivsi %a5, %v18 : vector<64xi32>
  return %v19 : vector<64xi32>
}
