// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache},convert-autollvm-to-arm)' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache remarks})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Sums of bytes by constant weights into 16-bit lanes, taken one input at a
// time: NEON's widening multiply-accumulates keep lanes in place, so each
// term is one umlal or umlsl by a register of byte weights (uaddw or usubw
// at weight 1), the largest positive weight's umull first. A sum of 16
// lanes spans two registers: one chain per half of the inputs.

// A 4-tap filter with a negative tap, at 8 lanes: the weights as bytes.
// CHECK-LABEL: func.func @taps8
// CHECK-DAG: arith.constant dense<7> : vector<8xi8>
// CHECK-DAG: arith.constant dense<3> : vector<8xi8>
// CHECK: "hydride_arm.vmull_u8"
// CHECK: "hydride_arm.vmlal_u8"
// CHECK: "hydride_arm.vmlsl_u8"
// CHECK-NOT: arith.muli
// CHECK: return
func.func @taps8(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<8xi8>, %d: vector<8xi8>) -> vector<8xi16> {
  %w3 = arith.constant dense<3> : vector<8xi16>
  %w5 = arith.constant dense<5> : vector<8xi16>
  %w7 = arith.constant dense<7> : vector<8xi16>
  %ae = arith.extui %a : vector<8xi8> to vector<8xi16>
  %be = arith.extui %b : vector<8xi8> to vector<8xi16>
  %ce = arith.extui %c : vector<8xi8> to vector<8xi16>
  %de = arith.extui %d : vector<8xi8> to vector<8xi16>
  %pa = arith.muli %ae, %w3 : vector<8xi16>
  %pb = arith.muli %be, %w5 : vector<8xi16>
  %pc = arith.muli %ce, %w7 : vector<8xi16>
  %s0 = arith.addi %pa, %pb : vector<8xi16>
  %s1 = arith.subi %s0, %pc : vector<8xi16>
  %s2 = arith.addi %s1, %de : vector<8xi16>
  return %s2 : vector<8xi16>
}

// 16 lanes: each term twice, on the low and the high half of its input.
// CHECK-LABEL: func.func @taps16
// CHECK-COUNT-2: "hydride_arm.vmull_u8"
// CHECK-NOT: arith.muli
// CHECK: vector.shuffle {{.*}} : vector<8xi16>, vector<8xi16>
// CHECK-NEXT: return
func.func @taps16(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<16xi8>) -> vector<16xi16> {
  %w9 = arith.constant dense<9> : vector<16xi16>
  %w10 = arith.constant dense<10> : vector<16xi16>
  %ae = arith.extui %a : vector<16xi8> to vector<16xi16>
  %be = arith.extui %b : vector<16xi8> to vector<16xi16>
  %ce = arith.extui %c : vector<16xi8> to vector<16xi16>
  %pa = arith.muli %ae, %w9 : vector<16xi16>
  %pb = arith.muli %be, %w10 : vector<16xi16>
  %s0 = arith.addi %pa, %pb : vector<16xi16>
  %s1 = arith.subi %s0, %ce : vector<16xi16>
  return %s1 : vector<16xi16>
}

// Many products by 8 at 16 lanes: as multiply-accumulates alone they would
// wait on the CPU's multiply units, so the chain shifts by 8 (a widening
// shift, then an add, beside the multiplies), as the CPU's model prices it.
// CHECK-LABEL: func.func @eights
// CHECK-COUNT-8: "hydride_arm.vshll_n_u8"
// CHECK-NOT: arith.muli
// CHECK: return
func.func @eights(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<16xi8>, %d: vector<16xi8>, %e: vector<16xi8>, %f: vector<16xi8>) -> vector<16xi16> {
  %w3 = arith.constant dense<3> : vector<16xi16>
  %w5 = arith.constant dense<5> : vector<16xi16>
  %w8 = arith.constant dense<8> : vector<16xi16>
  %ae = arith.extui %a : vector<16xi8> to vector<16xi16>
  %be = arith.extui %b : vector<16xi8> to vector<16xi16>
  %ce = arith.extui %c : vector<16xi8> to vector<16xi16>
  %de = arith.extui %d : vector<16xi8> to vector<16xi16>
  %ee = arith.extui %e : vector<16xi8> to vector<16xi16>
  %fe = arith.extui %f : vector<16xi8> to vector<16xi16>
  %pa = arith.muli %ae, %w3 : vector<16xi16>
  %pb = arith.muli %be, %w5 : vector<16xi16>
  %pc = arith.muli %ce, %w8 : vector<16xi16>
  %pd = arith.muli %de, %w8 : vector<16xi16>
  %pe = arith.muli %ee, %w8 : vector<16xi16>
  %pf = arith.muli %fe, %w8 : vector<16xi16>
  %s0 = arith.addi %pa, %pb : vector<16xi16>
  %s1 = arith.addi %s0, %pc : vector<16xi16>
  %s2 = arith.subi %s1, %pd : vector<16xi16>
  %s3 = arith.addi %s2, %pe : vector<16xi16>
  %s4 = arith.addi %s3, %pf : vector<16xi16>
  return %s4 : vector<16xi16>
}

// Eight terms in one register: a chain of eight multiply-accumulates
// would wait on each one's latency, so two accumulators (each started by
// a product), added at the end.
// CHECK-LABEL: func.func @long
// CHECK-COUNT-2: "hydride_arm.vmull_u8"
// CHECK-NOT: arith.muli
// CHECK: "hydride_arm.vaddq_s16"
// CHECK-NEXT: return
func.func @long(%x0: vector<8xi8>, %x1: vector<8xi8>, %x2: vector<8xi8>, %x3: vector<8xi8>, %x4: vector<8xi8>, %x5: vector<8xi8>, %x6: vector<8xi8>, %x7: vector<8xi8>) -> vector<8xi16> {
  %w2 = arith.constant dense<2> : vector<8xi16>
  %w3 = arith.constant dense<3> : vector<8xi16>
  %w5 = arith.constant dense<5> : vector<8xi16>
  %w6 = arith.constant dense<6> : vector<8xi16>
  %w7 = arith.constant dense<7> : vector<8xi16>
  %e0 = arith.extui %x0 : vector<8xi8> to vector<8xi16>
  %e1 = arith.extui %x1 : vector<8xi8> to vector<8xi16>
  %e2 = arith.extui %x2 : vector<8xi8> to vector<8xi16>
  %e3 = arith.extui %x3 : vector<8xi8> to vector<8xi16>
  %e4 = arith.extui %x4 : vector<8xi8> to vector<8xi16>
  %e5 = arith.extui %x5 : vector<8xi8> to vector<8xi16>
  %e6 = arith.extui %x6 : vector<8xi8> to vector<8xi16>
  %e7 = arith.extui %x7 : vector<8xi8> to vector<8xi16>
  %p0 = arith.muli %e0, %w3 : vector<8xi16>
  %p1 = arith.muli %e1, %w5 : vector<8xi16>
  %p2 = arith.muli %e2, %w2 : vector<8xi16>
  %p3 = arith.muli %e3, %w7 : vector<8xi16>
  %p6 = arith.muli %e6, %w6 : vector<8xi16>
  %s1 = arith.addi %p0, %p1 : vector<8xi16>
  %s2 = arith.subi %s1, %p2 : vector<8xi16>
  %s3 = arith.addi %s2, %p3 : vector<8xi16>
  %s4 = arith.addi %s3, %e4 : vector<8xi16>
  %s5 = arith.subi %s4, %e5 : vector<8xi16>
  %s6 = arith.addi %s5, %p6 : vector<8xi16>
  %s7 = arith.addi %s6, %e7 : vector<8xi16>
  return %s7 : vector<8xi16>
}

// Two sums of six inputs share a product of an input (the same input at
// the same weight): each reads it, and the chains are weighed together.
// CHECK-LABEL: func.func @shared_product
// CHECK-NOT: arith.muli
// CHECK: return
func.func @shared_product(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<8xi8>, %d: vector<8xi8>, %e: vector<8xi8>, %f: vector<8xi8>) -> (vector<8xi16>, vector<8xi16>) {
  %w2 = arith.constant dense<2> : vector<8xi16>
  %w3 = arith.constant dense<3> : vector<8xi16>
  %w6 = arith.constant dense<6> : vector<8xi16>
  %w9 = arith.constant dense<9> : vector<8xi16>
  %ae = arith.extui %a : vector<8xi8> to vector<8xi16>
  %be = arith.extui %b : vector<8xi8> to vector<8xi16>
  %ce = arith.extui %c : vector<8xi8> to vector<8xi16>
  %de = arith.extui %d : vector<8xi8> to vector<8xi16>
  %ee = arith.extui %e : vector<8xi8> to vector<8xi16>
  %fe = arith.extui %f : vector<8xi8> to vector<8xi16>
  %pa = arith.muli %ae, %w6 : vector<8xi16>
  %pb = arith.muli %be, %w9 : vector<8xi16>
  %pd = arith.muli %de, %w3 : vector<8xi16>
  %pf = arith.muli %fe, %w2 : vector<8xi16>
  %s0 = arith.addi %pa, %pb : vector<8xi16>
  %s1 = arith.addi %s0, %ce : vector<8xi16>
  %s2 = arith.subi %s1, %pd : vector<8xi16>
  %s3 = arith.addi %s2, %ee : vector<8xi16>
  %s4 = arith.addi %s3, %pf : vector<8xi16>
  %pc = arith.muli %ce, %w9 : vector<8xi16>
  %pe = arith.muli %ee, %w3 : vector<8xi16>
  %t0 = arith.subi %pa, %be : vector<8xi16>
  %t1 = arith.addi %t0, %pc : vector<8xi16>
  %t2 = arith.addi %t1, %de : vector<8xi16>
  %t3 = arith.subi %t2, %pe : vector<8xi16>
  %t4 = arith.addi %t3, %fe : vector<8xi16>
  return %s4, %t4 : vector<8xi16>, vector<8xi16>
}

// No positive weight past 1 to start the chain with: left to LLVM.
// REMARK: multiply-accumulate-chain.mlir:[[@LINE+8]]:{{[0-9]+}}: remark: {{.*}}as a sum of 3 products by constants, one at a time: no weight past 1 is positive to start the chain
func.func @no_start(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<8xi8>) -> vector<8xi16> {
  %w5 = arith.constant dense<5> : vector<8xi16>
  %ae = arith.extui %a : vector<8xi8> to vector<8xi16>
  %be = arith.extui %b : vector<8xi8> to vector<8xi16>
  %ce = arith.extui %c : vector<8xi8> to vector<8xi16>
  %pb = arith.muli %be, %w5 : vector<8xi16>
  %s0 = arith.subi %ae, %pb : vector<8xi16>
  %s1 = arith.subi %s0, %ce : vector<8xi16>
  return %s1 : vector<8xi16>
}
