// REQUIRES: qemu-aarch64
// RUN: %fuzz --replay %s --target aarch64-neon-dotprod-i8mm
// Found by `scripts/fuzz --seed 2` (program 20) at aarch64-neon-dotprod-i8mm: crash: mlir-opt exit 1: <stdin>:11:10: error: 'autollvm.and_or_not_shr_by_imm_u' op implements no instruction with attributes {a0_elem_width = 8, a2 = 15, a2_width = 4, bit = 127, constant = 255, loop_bound = 15}, operands (vector<16xi8>, vector<16xi8>) and result vector<16xi8>; with these types the attrib
// Minimized from 10 to 10 ops.
func.func @p20(%a0: vector<32xi8>, %a1: vector<32xi8>) -> vector<32xi8> {
  %v1 = arith.extui %a0 : vector<32xi8> to vector<32xi64>
  %v2 = arith.extui %a0 : vector<32xi8> to vector<32xi64>
  %v3 = arith.addi %v1, %v2 : vector<32xi64>
  %v4 = arith.constant dense<1> : vector<32xi64>
  %v5 = arith.addi %v3, %v4 : vector<32xi64>
  %v6 = arith.constant dense<1> : vector<32xi64>
  %v7 = arith.shrui %v5, %v6 : vector<32xi64>
  %v8 = arith.trunci %v7 : vector<32xi64> to vector<32xi8>
  %v9 = arith.cmpi sgt, %v8, %a0 : vector<32xi8>
  %v10 = arith.select %v9, %a1, %a0 : vector<32xi1>, vector<32xi8>
  return %v10 : vector<32xi8>
}
