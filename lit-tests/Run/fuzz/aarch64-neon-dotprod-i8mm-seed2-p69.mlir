// REQUIRES: qemu-aarch64
// RUN: %fuzz --replay %s --target aarch64-neon-dotprod-i8mm
// Found by `scripts/fuzz --seed 2` (program 69) at aarch64-neon-dotprod-i8mm: crash: mlir-opt exit 1: <stdin>:7:9: error: 'autollvm.and_or_not_shr_by_imm_u' op implements no instruction with attributes {a0_elem_width = 32, a2 = 46, a2_width = 6, bit = 127, constant = 4294967295, loop_bound = 3}, operands (vector<4xi32>, vector<4xi32>) and result vector<4xi32>; with these types the a
// Minimized from 6 to 3 ops.
func.func @p69(%a0: vector<16xi8>, %a1: vector<64xi32>, %a2: vector<64xi32>) -> vector<64xi32> {
  %v4 = arith.maxui %a1, %a1 : vector<64xi32>
  %v5 = arith.cmpi eq, %a2, %a1 : vector<64xi32>
  %v6 = arith.select %v5, %a1, %v4 : vector<64xi1>, vector<64xi32>
  return %v6 : vector<64xi32>
}
