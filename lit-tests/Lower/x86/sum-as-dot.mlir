// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache}))' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ARM
// A sum of groups of four extended bytes is their dot product with ones:
// written so before synthesis (and proved equal), it becomes one vpdpbusd
// with a zero accumulator at AVX-512 (VNNI), the bytes on the unsigned side
// or, sign-extended, on the signed side. Without VNNI the product by one
// stays for LLVM to drop.

// CHECK-LABEL: func.func @sum4_unsigned
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : vector<64xi8>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : vector<16xi32>
// CHECK: autollvm.dot_acc_su_widen %arg0, %[[ONES]], %[[ZERO]]
// CHECK-NOT: vector.multi_reduction
// AVX2-LABEL: func.func @sum4_unsigned
// AVX2: arith.muli
// AVX2: vector.multi_reduction <add>
func.func @sum4_unsigned(%a: vector<64xi8>) -> vector<16xi32> {
  %x = arith.extui %a : vector<64xi8> to vector<64xi32>
  %g = vector.shape_cast %x : vector<64xi32> to vector<16x4xi32>
  %z = arith.constant dense<0> : vector<16xi32>
  %s = vector.multi_reduction <add>, %g, %z [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// CHECK-LABEL: func.func @sum4_signed_acc
// CHECK: autollvm.dot_acc_su_widen %{{.*}}, %arg0, %arg1
// CHECK-NOT: vector.multi_reduction
func.func @sum4_signed_acc(%a: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %x = arith.extsi %a : vector<64xi8> to vector<64xi32>
  %g = vector.shape_cast %x : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %g, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// The even and the odd bytes of one vector, extended and added, are its
// pairwise dot product with ones: one vpmaddubsw at AVX-512, one per
// 256-bit piece at AVX2. On NEON the pairs stay sums (one uaddlp a piece).
// CHECK-LABEL: func.func @pair_sums
// CHECK: %[[ONES:.*]] = arith.constant dense<1> : vector<64xi8>
// CHECK: %[[S:.*]] = autollvm.dot_sat_su_widen %arg0, %[[ONES]]
// CHECK-NOT: vector.deinterleave
// CHECK: return %[[S]]
// AVX2-LABEL: func.func @pair_sums
// AVX2-COUNT-2: autollvm.dot_sat_su_widen
// AVX2-NOT: vector.deinterleave
// AVX2: return
// ARM-LABEL: func.func @pair_sums
// ARM-NOT: arith.constant
// ARM-COUNT-4: autollvm.add_widen
// ARM: return
func.func @pair_sums(%a: vector<64xi8>) -> vector<32xi16> {
  %e, %o = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %we = arith.extui %e : vector<32xi8> to vector<32xi16>
  %wo = arith.extui %o : vector<32xi8> to vector<32xi16>
  %s = arith.addi %wo, %we : vector<32xi16>
  return %s : vector<32xi16>
}

// Odd bytes of two vectors are no pair of one: no product by ones.
// CHECK-LABEL: func.func @odd_and_odd
// CHECK-NOT: dense<1>
// CHECK-NOT: autollvm.dot_sat_su_widen
// CHECK: return
func.func @odd_and_odd(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<32xi16> {
  %e, %o = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %e1, %o1 = vector.deinterleave %b : vector<64xi8> -> vector<32xi8>
  %wb = arith.extui %o1 : vector<32xi8> to vector<32xi16>
  %wa = arith.extui %o : vector<32xi8> to vector<32xi16>
  %s = arith.addi %wa, %wb : vector<32xi16>
  return %s : vector<32xi16>
}
