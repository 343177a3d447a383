// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache})' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=ZMM
// A stencil's multiply-accumulate chain, sum of w_k * zext(x_k): the
// inputs are paired, each pair's bytes unpacked within 128-bit lanes and
// summed pairwise by its two weights (vpmaddubsw, found by the search for
// the pair), the pairs' sums added, and the lanes put back in order at the
// end. Four inputs: two pairs, each in the low and the high halves of the
// lanes.

// CHECK-LABEL: func.func @weighted_sum
// CHECK: arith.constant dense<[6, 1, 6, 1,
// CHECK: arith.constant dense<[4, 2, 4, 2,
// CHECK: vector.shuffle {{.*}} [0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 16, 48
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: vector.shuffle {{.*}} [0, 32, 1, 33
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: autollvm.add
// CHECK-NEXT: vector.shuffle {{.*}} [8, 40, 9, 41
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: vector.shuffle {{.*}} [8, 40, 9, 41
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: autollvm.add
// CHECK: vector.shuffle {{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi64>, vector<4xi64>
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.extui
// CHECK: return
// At AVX-512 the chain is one register per op (zmm): no cheaper in the
// cost model, left to LLVM.
// ZMM-LABEL: func.func @weighted_sum
// ZMM-NOT: autollvm.dot_sat_su_widen
// ZMM: return
func.func @weighted_sum(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<32xi8>, %d: vector<32xi8>) -> vector<32xi16> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %z = arith.extui %c : vector<32xi8> to vector<32xi16>
  %u = arith.extui %d : vector<32xi8> to vector<32xi16>
  %c6 = arith.constant dense<6> : vector<32xi16>
  %c4 = arith.constant dense<4> : vector<32xi16>
  %c2 = arith.constant dense<-2> : vector<32xi16>
  %ym = arith.muli %y, %c6 : vector<32xi16>
  %zm = arith.muli %z, %c4 : vector<32xi16>
  %um = arith.muli %u, %c2 : vector<32xi16>
  %s = arith.addi %x, %ym : vector<32xi16>
  %t = arith.addi %s, %zm : vector<32xi16>
  %r = arith.subi %t, %um : vector<32xi16>
  return %r : vector<32xi16>
}

// A weight past a signed byte: no pairwise multiply-add holds it, the chain
// is left as written.
// CHECK-LABEL: func.func @weight_too_large
// CHECK-NOT: autollvm.dot_sat_su_widen
// CHECK: return
func.func @weight_too_large(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<32xi8>) -> vector<32xi16> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %z = arith.extui %c : vector<32xi8> to vector<32xi16>
  %big = arith.constant dense<200> : vector<32xi16>
  %ym = arith.muli %y, %big : vector<32xi16>
  %s = arith.addi %x, %ym : vector<32xi16>
  %t = arith.addi %s, %z : vector<32xi16>
  return %t : vector<32xi16>
}
