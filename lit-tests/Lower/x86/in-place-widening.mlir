// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ARM
// Bytes loaded from memory, extended to i16, summed, divided and truncated
// back: on x86 the bytes are read as 16-bit lanes, the even ones masked and
// the odd ones shifted down, the sums and quotients computed once per half,
// and the halves put back in place (no vpmovzxbw, no vpmovwb). The new form
// is proved equal to the old one.

// CHECK-LABEL: func.func @mean3
// CHECK-NOT: arith.extui
// CHECK-DAG: vector.bitcast %{{.*}} : vector<32xi8> to vector<16xi16>
// CHECK-DAG: arith.andi
// CHECK-DAG: arith.shrui
// CHECK-DAG: arith.divui %{{.*}} : vector<16xi16>
// CHECK-DAG: arith.shli
// CHECK-DAG: arith.ori
// CHECK-NOT: arith.trunci
// CHECK: vector.bitcast %{{.*}} : vector<16xi16> to vector<32xi8>
// CHECK: vector.store
// REMARK: in-place-widening.mlir:[[@LINE+15]]:8: remark: hydride-in-place-widening: 8 ops computed in place on the 2 parts of 16-bit lanes{{.*}}(proved equal)
// ARM-LABEL: func.func @mean3
// ARM: arith.extui
// ARM: arith.trunci
func.func @mean3(%m: memref<?xi8>, %i: index, %j: index, %k: index) {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %b = vector.load %m[%j] : memref<?xi8>, vector<32xi8>
  %c = vector.load %m[%k] : memref<?xi8>, vector<32xi8>
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %z = arith.extui %c : vector<32xi8> to vector<32xi16>
  %three = arith.constant dense<3> : vector<32xi16>
  %s = arith.addi %x, %y : vector<32xi16>
  %t = arith.addi %s, %z : vector<32xi16>
  %q = arith.divui %t, %three : vector<32xi16>
  %r = arith.trunci %q : vector<32xi16> to vector<32xi8>
  vector.store %r, %m[%i] : memref<?xi8>, vector<32xi8>
  return
}

// Signed bytes: the halves are sign-extended by shifts.
// CHECK-LABEL: func.func @signed_difference
// CHECK-NOT: arith.extsi
// CHECK: arith.shrsi
// CHECK: vector.bitcast %{{.*}} : vector<16xi16> to vector<32xi8>
func.func @signed_difference(%m: memref<?xi8>, %i: index, %j: index) {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %b = vector.load %m[%j] : memref<?xi8>, vector<32xi8>
  %x = arith.extsi %a : vector<32xi8> to vector<32xi16>
  %y = arith.extsi %b : vector<32xi8> to vector<32xi16>
  %d = arith.subi %x, %y : vector<32xi16>
  %one = arith.constant dense<1> : vector<32xi16>
  %h = arith.shrsi %d, %one : vector<32xi16>
  %r = arith.trunci %h : vector<32xi16> to vector<32xi8>
  vector.store %r, %m[%i] : memref<?xi8>, vector<32xi8>
  return
}

// A product by a constant other than a power of two stays extended (in
// place it ran slower on Zen 4), and so do bytes a deinterleave produced
// (LLVM extends those in place itself).
// REMARK: in-place-widening.mlir:[[@LINE+13]]:8: remark: hydride-in-place-widening: not computed in place: it multiplies by a value other than a power of two
// REMARK: in-place-widening.mlir:[[@LINE+26]]:8: remark: hydride-in-place-widening: not computed in place: it extends the result of a shuffle
// CHECK-LABEL: func.func @product
// CHECK: arith.extui
// CHECK: arith.trunci
// CHECK-LABEL: func.func @deinterleaved
// CHECK: arith.extui
// CHECK: arith.trunci
func.func @product(%m: memref<?xi8>, %i: index) {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %three = arith.constant dense<3> : vector<32xi16>
  %p = arith.muli %x, %three : vector<32xi16>
  %r = arith.trunci %p : vector<32xi16> to vector<32xi8>
  vector.store %r, %m[%i] : memref<?xi8>, vector<32xi8>
  return
}

func.func @deinterleaved(%m: memref<?xi8>, %i: index) {
  %a = vector.load %m[%i] : memref<?xi8>, vector<64xi8>
  %e, %o = vector.deinterleave %a : vector<64xi8> -> vector<32xi8>
  %b = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %x = arith.extui %e : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %s = arith.addi %x, %y : vector<32xi16>
  %one = arith.constant dense<1> : vector<32xi16>
  %h = arith.shrui %s, %one : vector<32xi16>
  %r = arith.trunci %h : vector<32xi16> to vector<32xi8>
  vector.store %r, %m[%i] : memref<?xi8>, vector<32xi8>
  return
}
