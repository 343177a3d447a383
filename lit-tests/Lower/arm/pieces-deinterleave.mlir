// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon-dotprod-i8mm cache-dir=%t.cache remarks=true})' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// A vector.deinterleave in a window wider than the registers (128 bits on
// NEON) is cut like the lane-wise ops around it: piece q of its even and
// odd results are the even and odd lanes of piece q of its operand. The
// sums of pairs of columns of a 2x2 average pool are then one uaddlp
// (autollvm.add_widen) per 128-bit piece, the pieces concatenated.
// Execution: the benchmark's check of average_pool under qemu-aarch64
// (scripts/test, bench check aarch64).

// CHECK-LABEL: func.func @pair_sums
// CHECK-COUNT-2: autollvm.add_widen{{.*}} : vector<16xi8> to vector<8xi16>
// CHECK: vector.shuffle {{.*}} : vector<8xi16>, vector<8xi16>
// CHECK-NOT: vector.deinterleave
// CHECK: return
func.func @pair_sums(%l: vector<32xi8>) -> vector<16xi16> {
  %e, %o = vector.deinterleave %l : vector<32xi8> -> vector<16xi8>
  %a = arith.extui %e : vector<16xi8> to vector<16xi16>
  %b = arith.extui %o : vector<16xi8> to vector<16xi16>
  %s = arith.addi %a, %b : vector<16xi16>
  return %s : vector<16xi16>
}

// The maxima of pairs of columns: each piece's result would be half a
// register (umaxp of a piece with itself), where umaxp of two registers
// computes two pieces at once. Not cut; LLVM's ld2-style deinterleave and
// umax stay.
// CHECK-LABEL: func.func @pair_maxima
// CHECK: vector.deinterleave
// CHECK-NOT: autollvm.
// CHECK: return
// REMARK: pieces-deinterleave.mlir:[[@LINE+3]]:8: remark: window of 2 ops left unchanged
func.func @pair_maxima(%l: vector<64xi8>) -> vector<32xi8> {
  %e, %o = vector.deinterleave %l : vector<64xi8> -> vector<32xi8>
  %m = arith.maxui %e, %o : vector<32xi8>
  return %m : vector<32xi8>
}
