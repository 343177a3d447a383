// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon proof-ms=0 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s --check-prefix=STARVED
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=FED
// Z3 starved (proof-ms=0: a resource limit of one unit per query; a
// millisecond's worth already proves this lane by bit-blasting):
// the proof of vqaddq_s16 runs out, so nothing is rewritten and the output
// is the input, with a remark saying why; a solver that fails is never a
// rewrite. With the same memo directory the full budget gets its own answer
// (the budget is part of the memo key, and a failed proof under it is not
// reused), and the clamped add becomes one saturating add. The passes'
// normalizations take at most this budget too (in-place widening, sums as
// dot products, column-by-column extrema).

// The clamp stays as written; the widening sum and its lower clamp alone
// (`vaddl_s16` then `vmaxq_s32`, per 128-bit piece) are proved within the
// starved budget, and only they may become target ops.
// STARVED-LABEL: func.func @clamped_add
// STARVED-NOT: autollvm.add_sat
// STARVED: arith.minsi
// STARVED-NEXT: arith.trunci
// STARVED-NOT: autollvm
// REMARK: remark: window of 6 ops left unchanged (target aarch64-neon): no candidate proved equal (vqaddq_s16: unknown
// FED-LABEL: func.func @clamped_add
// FED: autollvm.add_sat_s
func.func @clamped_add(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %lo = arith.constant dense<-32768> : vector<8xi32>
  %hi = arith.constant dense<32767> : vector<8xi32>
  %x = arith.extsi %a : vector<8xi16> to vector<8xi32>
  %y = arith.extsi %b : vector<8xi16> to vector<8xi32>
  %s = arith.addi %x, %y : vector<8xi32>
  %c = arith.maxsi %s, %lo : vector<8xi32>
  %d = arith.minsi %c, %hi : vector<8xi32>
  %t = arith.trunci %d : vector<8xi32> to vector<8xi16>
  return %t : vector<8xi16>
}
