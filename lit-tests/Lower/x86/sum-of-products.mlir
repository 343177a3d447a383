// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache})' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache remarks=true})' %s 2>&1 | FileCheck %s --check-prefix=ZMM
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cpu=skylake-avx512 cache-dir=%t.cache remarks=true})' %s 2>&1 | FileCheck %s --check-prefix=SKX
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache remarks=true})' %s 2>&1 | FileCheck %s --check-prefix=YMM
// A stencil's multiply-accumulate chain, sum of w_k * zext(x_k): the
// inputs are paired, each pair's bytes unpacked within 128-bit lanes and
// summed pairwise by its two weights (vpmaddubsw, found by the search for
// the pair), the pairs' sums added, and the lanes put back in order at the
// end. Four inputs: two pairs, each in the low and the high halves of the
// lanes, pair by pair (a pair's inputs are read by adjacent steps).

// CHECK-LABEL: func.func @weighted_sum
// CHECK: arith.constant dense<[6, 1, 6, 1,
// CHECK: arith.constant dense<[4, 2, 4, 2,
// CHECK: vector.shuffle {{.*}} [0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 16, 48
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: vector.shuffle {{.*}} [8, 40, 9, 41
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: vector.shuffle {{.*}} [0, 32, 1, 33
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: autollvm.add
// CHECK-NEXT: vector.shuffle {{.*}} [8, 40, 9, 41
// CHECK-NEXT: autollvm.dot_sat_su_widen
// CHECK-NEXT: autollvm.add
// CHECK: vector.shuffle {{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi64>, vector<4xi64>
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.extui
// CHECK: return
// At AVX-512 the chain is one register per op (zmm), and the CPU's model
// decides: on Zen 4 (the target's default CPU) the pairs' unpacks and
// multiply-adds take fewer cycles than LLVM's extensions and products
// (llvm-mca: 4.0 cycles each, 3.0 against 4.0 on Sapphire Rapids); on
// Skylake-AVX512 they take more (llvm-mca: 9.0 against 4.0), so the chain
// is left to LLVM, and the remark gives both prices.
// ZMM-LABEL: func.func @weighted_sum
// ZMM: autollvm.dot_sat_su_widen
// ZMM: return
// (The remark checked at the chain's root, below.)
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
  // SKX: sum-of-products.mlir:[[@LINE+1]]:8: remark: window of 10 ops left unchanged (target x86-avx512): {{.*}} as a sum of 4 products by constants, two at a time: the program is no cheaper than the chain: {{[0-9.]+}} cycles paired, {{[0-9.]+}} cycles as it is, on cpu skylake-avx512
  %r = arith.subi %t, %um : vector<32xi16>
  return %r : vector<32xi16>
}
// SKX-LABEL: func.func @weighted_sum
// SKX-NOT: autollvm.dot_sat_su_widen
// SKX: return

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

// 32-bit sums with 16-bit weights: each pair's bytes unpacked, widened to
// words and multiplied-added pairwise by its weights (vpmovzxbw, vpmaddwd),
// then added into the chain (vpaddd: AVX2 has no instruction that adds the
// pair into it). One 128-bit lane: the low chain holds lanes 0 to 7, the
// high one 8 to 15.
// CHECK-LABEL: func.func @wide_weights
// CHECK: arith.constant dense<[400, 1, 400, 1,
// CHECK: vector.shuffle {{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK: autollvm.dot_s
// CHECK: vector.shuffle {{.*}} [8, 24, 9, 25
// CHECK: autollvm.add
// CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi64>, vector<4xi64>
// CHECK-NOT: arith.muli
// CHECK: return
func.func @wide_weights(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<16xi8>, %d: vector<16xi8>) -> vector<16xi32> {
  %x = arith.extui %a : vector<16xi8> to vector<16xi32>
  %y = arith.extui %b : vector<16xi8> to vector<16xi32>
  %z = arith.extui %c : vector<16xi8> to vector<16xi32>
  %u = arith.extui %d : vector<16xi8> to vector<16xi32>
  %c400 = arith.constant dense<400> : vector<16xi32>
  %c300 = arith.constant dense<300> : vector<16xi32>
  %c20 = arith.constant dense<20> : vector<16xi32>
  %xm = arith.muli %x, %c400 : vector<16xi32>
  %ym = arith.muli %y, %c300 : vector<16xi32>
  %zm = arith.muli %z, %c20 : vector<16xi32>
  %s = arith.addi %xm, %ym : vector<16xi32>
  %t = arith.addi %s, %zm : vector<16xi32>
  %r = arith.addi %t, %u : vector<16xi32>
  return %r : vector<16xi32>
}

// Two chains sharing an input's extension (a Sobel filter's gradients read
// the same corner taps): each is paired, the shared extension read by both
// until neither needs it. The weights differ: LLVM multiplies once by a
// weight the chains share, and two products by 2 would not pay.
// CHECK-LABEL: func.func @shared_taps
// CHECK-COUNT-4: autollvm.dot_sat_su_widen
// CHECK: vector.shuffle {{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi64>, vector<4xi64>
// CHECK-COUNT-4: autollvm.dot_sat_su_widen
// CHECK: vector.shuffle {{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi64>, vector<4xi64>
// CHECK-NOT: arith.extui
// CHECK: return
func.func @shared_taps(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<32xi8>, %d: vector<32xi8>) -> (vector<32xi16>, vector<32xi16>) {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %z = arith.extui %c : vector<32xi8> to vector<32xi16>
  %u = arith.extui %d : vector<32xi8> to vector<32xi16>
  %c3 = arith.constant dense<3> : vector<32xi16>
  %c5 = arith.constant dense<5> : vector<32xi16>
  %c7 = arith.constant dense<7> : vector<32xi16>
  %y3 = arith.muli %y, %c3 : vector<32xi16>
  %s = arith.addi %x, %y3 : vector<32xi16>
  %t = arith.subi %s, %z : vector<32xi16>
  %gx = arith.subi %t, %u : vector<32xi16>
  %u5 = arith.muli %u, %c5 : vector<32xi16>
  %p = arith.subi %x, %u5 : vector<32xi16>
  %q = arith.addi %p, %z : vector<32xi16>
  %y7 = arith.muli %y, %c7 : vector<32xi16>
  %gy = arith.addi %q, %y7 : vector<32xi16>
  return %gx, %gy : vector<32xi16>, vector<32xi16>
}

// A weight written as a left shift (x << 2 is 4x): read as a product, and
// proved so (a shift by a constant is a product by its power of two).
// CHECK-LABEL: func.func @shifted_weight
// CHECK: arith.constant dense<[4, 1, 4, 1,
// CHECK-COUNT-4: autollvm.dot_sat_su_widen
// CHECK-NOT: arith.shli
// CHECK: return
func.func @shifted_weight(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<32xi8>, %d: vector<32xi8>) -> vector<32xi16> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %z = arith.extui %c : vector<32xi8> to vector<32xi16>
  %u = arith.extui %d : vector<32xi8> to vector<32xi16>
  %k2 = arith.constant dense<2> : vector<32xi16>
  %c3 = arith.constant dense<3> : vector<32xi16>
  %x4 = arith.shli %x, %k2 : vector<32xi16>
  %z3 = arith.muli %z, %c3 : vector<32xi16>
  %s = arith.addi %x4, %y : vector<32xi16>
  %t = arith.addi %s, %z3 : vector<32xi16>
  %r = arith.addi %t, %u : vector<32xi16>
  return %r : vector<32xi16>
}

// Inputs loaded from memory, three of them by 6 and three by 15, summed in
// 32 bits (a binomial filter's taps). LLVM's chain on x86 extends each input
// straight from memory (`vpmovzxbd` with a memory operand) and multiplies
// once per weight (6·(a + c + e)); pairs, which need each input in a
// register and a `vpmaddwd` per pair and half, would cost more. The chain
// is factored by weight before synthesis instead (equal-weights.mlir): each
// weight's bytes summed in 16-bit lanes, then one product per weight.
// YMM: remark: hydride-equal-weights: a sum of 6 extended bytes times constant weights (2 distinct) factored by weight
// CHECK-LABEL: func.func @equal_weights_from_memory
// CHECK-NOT: autollvm.dot_s
// CHECK: return
func.func @equal_weights_from_memory(%m: memref<?xi8>, %i: index) -> vector<16xi32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %i3 = arith.addi %i, %c3 : index
  %i4 = arith.addi %i, %c4 : index
  %i5 = arith.addi %i, %c5 : index
  %a = vector.load %m[%i] : memref<?xi8>, vector<16xi8>
  %b = vector.load %m[%i1] : memref<?xi8>, vector<16xi8>
  %c = vector.load %m[%i2] : memref<?xi8>, vector<16xi8>
  %d = vector.load %m[%i3] : memref<?xi8>, vector<16xi8>
  %e = vector.load %m[%i4] : memref<?xi8>, vector<16xi8>
  %f = vector.load %m[%i5] : memref<?xi8>, vector<16xi8>
  %x = arith.extui %a : vector<16xi8> to vector<16xi32>
  %y = arith.extui %b : vector<16xi8> to vector<16xi32>
  %z = arith.extui %c : vector<16xi8> to vector<16xi32>
  %u = arith.extui %d : vector<16xi8> to vector<16xi32>
  %v = arith.extui %e : vector<16xi8> to vector<16xi32>
  %w = arith.extui %f : vector<16xi8> to vector<16xi32>
  %c6 = arith.constant dense<6> : vector<16xi32>
  %c15 = arith.constant dense<15> : vector<16xi32>
  %xm = arith.muli %x, %c6 : vector<16xi32>
  %ym = arith.muli %y, %c15 : vector<16xi32>
  %zm = arith.muli %z, %c6 : vector<16xi32>
  %um = arith.muli %u, %c15 : vector<16xi32>
  %vm = arith.muli %v, %c6 : vector<16xi32>
  %wm = arith.muli %w, %c15 : vector<16xi32>
  %s1 = arith.addi %xm, %ym : vector<16xi32>
  %s2 = arith.addi %s1, %zm : vector<16xi32>
  %s3 = arith.addi %s2, %um : vector<16xi32>
  %s4 = arith.addi %s3, %vm : vector<16xi32>
  %s5 = arith.addi %s4, %wm : vector<16xi32>
  return %s5 : vector<16xi32>
}
