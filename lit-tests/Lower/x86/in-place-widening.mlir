// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx512 cpu=sapphirerapids remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=SPR
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-in-place-widening{target=x86-avx2 cpu=znver3 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ZEN3
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ARM
// Bytes loaded from memory, extended to i16, computed on and truncated
// back. In place, the bytes are read as 16-bit lanes, the even ones masked
// and the odd ones shifted down (shifted up and back for signed bytes), the
// lane-wise ops computed once per half, and the halves put back in place:
// no vpmovzxbw, no vpmovwb, but twice the arithmetic. Each region is
// rewritten where that is cheaper on the CPU's model (the remark gives both
// prices), and the new form is proved equal to the old one. The CPUs
// differ: Zen 4 (x86-avx512's default CPU) takes the sum and quotient of
// mean3 in place and keeps the others; Sapphire Rapids the reverse for the
// product; Zen 3's 256-bit shuffles are dearer and it takes all three.

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
// CHECK-LABEL: func.func @signed_difference
// CHECK: arith.extsi
// CHECK: arith.trunci
// CHECK-LABEL: func.func @product
// CHECK: arith.extui
// CHECK: arith.trunci
// CHECK-LABEL: func.func @deinterleaved
// CHECK: arith.extui
// CHECK: arith.trunci
// REMARK: in-place-widening.mlir:[[@LINE+31]]:8: remark: hydride-in-place-widening: 8 ops computed in place on the 2 parts of 16-bit lanes{{.*}}(proved equal) ({{[0-9.]+}} cycles in place, {{[0-9.]+}} as it is, on cpu znver4)
// REMARK: in-place-widening.mlir:[[@LINE+43]]:8: remark: hydride-in-place-widening: not computed in place: {{[0-9.]+}} cycles in place, {{[0-9.]+}} cycles as it is, on cpu znver4
// REMARK: in-place-widening.mlir:[[@LINE+52]]:8: remark: hydride-in-place-widening: not computed in place: {{[0-9.]+}} cycles in place, {{[0-9.]+}} cycles as it is, on cpu znver4
// REMARK: in-place-widening.mlir:[[@LINE+65]]:8: remark: hydride-in-place-widening: not computed in place: it extends the result of a shuffle
// SPR: remark: hydride-in-place-widening: not computed in place: {{.*}} on cpu sapphirerapids
// SPR: remark: hydride-in-place-widening: not computed in place: {{.*}} on cpu sapphirerapids
// SPR: remark: hydride-in-place-widening: {{[0-9]+}} ops computed in place {{.*}} on cpu sapphirerapids)
// SPR-LABEL: func.func @mean3
// SPR: arith.extui
// SPR-LABEL: func.func @product
// SPR-NOT: arith.extui
// SPR: arith.muli %{{.*}} : vector<16xi16>
// ZEN3-COUNT-3: remark: hydride-in-place-widening: {{[0-9]+}} ops computed in place {{.*}} on cpu znver3)
// ZEN3-LABEL: func.func @signed_difference
// ZEN3-NOT: arith.extsi
// ZEN3: arith.shrsi
// ZEN3: vector.bitcast %{{.*}} : vector<16xi16> to vector<32xi8>
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
