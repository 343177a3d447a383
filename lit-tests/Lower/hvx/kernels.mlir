// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=hexagon-hvx128 cache-dir=%t.cache},convert-autollvm-to-hvx)' %s | FileCheck %s
// The kernels of Run/hvx/kernels.test at HVX's 1024 bits: each window is
// written as plain arith/vector code, and synthesis finds the HVX
// instruction that computes it, with no pattern written for any of them.

// CHECK-LABEL: func.func @vaddhsat
// CHECK: hydride_hvx.v6_vaddhsat
// CHECK-NOT: arith.maxsi
func.func @vaddhsat(%a: vector<64xi16>, %b: vector<64xi16>) -> vector<64xi16> {
  %lo = arith.constant dense<-32768> : vector<64xi32>
  %hi = arith.constant dense<32767> : vector<64xi32>
  %ae = arith.extsi %a : vector<64xi16> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi16> to vector<64xi32>
  %s = arith.addi %ae, %be : vector<64xi32>
  %c1 = arith.maxsi %s, %lo : vector<64xi32>
  %c2 = arith.minsi %c1, %hi : vector<64xi32>
  %r = arith.trunci %c2 : vector<64xi32> to vector<64xi16>
  return %r : vector<64xi16>
}

// CHECK-LABEL: func.func @vaddubsat
// CHECK: hydride_hvx.v6_vaddubsat
func.func @vaddubsat(%a: vector<128xi8>, %b: vector<128xi8>) -> vector<128xi8> {
  %hi = arith.constant dense<255> : vector<128xi16>
  %ae = arith.extui %a : vector<128xi8> to vector<128xi16>
  %be = arith.extui %b : vector<128xi8> to vector<128xi16>
  %s = arith.addi %ae, %be : vector<128xi16>
  %c = arith.minui %s, %hi : vector<128xi16>
  %r = arith.trunci %c : vector<128xi16> to vector<128xi8>
  return %r : vector<128xi8>
}

// Half a register: HVX has no instruction of 512 bits, so the window is
// synthesized at 1024 (each input repeated twice) and the result's first
// half taken (`passes/src/synth/pieces.rs`, `widened_block`). The bytes are
// repeated as 32-bit words, which llc 22 gets right on Hexagon where a
// repeat of bytes can come out wrong (Run/fuzz/hexagon-hvx128-seed31-p4).
// CHECK-LABEL: func.func @vaddubsat_half
// CHECK-NOT: arith.minui
// CHECK: vector.bitcast %{{.*}} : vector<64xi8> to vector<16xi32>
// CHECK-NEXT: vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 14, 15, 0, 1, {{.*}}, 14, 15] : vector<16xi32>, vector<16xi32>
// CHECK-NEXT: vector.bitcast %{{.*}} : vector<32xi32> to vector<128xi8>
// CHECK: hydride_hvx.v6_vaddubsat{{.*}} -> vector<128xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 62, 63] : vector<128xi8>, vector<128xi8>
// CHECK-NOT: arith.
func.func @vaddubsat_half(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %hi = arith.constant dense<255> : vector<64xi16>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi16>
  %be = arith.extui %b : vector<64xi8> to vector<64xi16>
  %s = arith.addi %ae, %be : vector<64xi16>
  %c = arith.minui %s, %hi : vector<64xi16>
  %r = arith.trunci %c : vector<64xi16> to vector<64xi8>
  return %r : vector<64xi8>
}

// CHECK-LABEL: func.func @vsubuhsat
// CHECK: hydride_hvx.v6_vsubuhsat
func.func @vsubuhsat(%a: vector<64xi16>, %b: vector<64xi16>) -> vector<64xi16> {
  %m = arith.maxui %a, %b : vector<64xi16>
  %r = arith.subi %m, %b : vector<64xi16>
  return %r : vector<64xi16>
}

// CHECK-LABEL: func.func @vavgubrnd
// CHECK: hydride_hvx.v6_vavgubrnd
func.func @vavgubrnd(%a: vector<128xi8>, %b: vector<128xi8>) -> vector<128xi8> {
  %one = arith.constant dense<1> : vector<128xi16>
  %ae = arith.extui %a : vector<128xi8> to vector<128xi16>
  %be = arith.extui %b : vector<128xi8> to vector<128xi16>
  %s = arith.addi %ae, %be : vector<128xi16>
  %s1 = arith.addi %s, %one : vector<128xi16>
  %h = arith.shrui %s1, %one : vector<128xi16>
  %r = arith.trunci %h : vector<128xi16> to vector<128xi8>
  return %r : vector<128xi8>
}

// CHECK-LABEL: func.func @vavgh
// CHECK: hydride_hvx.v6_vavgh
func.func @vavgh(%a: vector<64xi16>, %b: vector<64xi16>) -> vector<64xi16> {
  %one = arith.constant dense<1> : vector<64xi32>
  %ae = arith.extsi %a : vector<64xi16> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi16> to vector<64xi32>
  %s = arith.addi %ae, %be : vector<64xi32>
  %h = arith.shrsi %s, %one : vector<64xi32>
  %r = arith.trunci %h : vector<64xi32> to vector<64xi16>
  return %r : vector<64xi16>
}

// CHECK-LABEL: func.func @vabsdiffub
// CHECK: hydride_hvx.v6_vabsdiffub
func.func @vabsdiffub(%a: vector<128xi8>, %b: vector<128xi8>) -> vector<128xi8> {
  %hi = arith.maxui %a, %b : vector<128xi8>
  %lo = arith.minui %a, %b : vector<128xi8>
  %r = arith.subi %hi, %lo : vector<128xi8>
  return %r : vector<128xi8>
}

// CHECK-LABEL: func.func @vrmpybusv_acc
// CHECK: hydride_hvx.v6_vrmpybusv_acc
// CHECK-NOT: arith.muli
func.func @vrmpybusv_acc(%a: vector<128xi8>, %b: vector<128xi8>, %acc: vector<32xi32>) -> vector<32xi32> {
  %ae = arith.extui %a : vector<128xi8> to vector<128xi32>
  %be = arith.extsi %b : vector<128xi8> to vector<128xi32>
  %p = arith.muli %ae, %be : vector<128xi32>
  %p2 = vector.shape_cast %p : vector<128xi32> to vector<32x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<32x4xi32> to vector<32xi32>
  return %s : vector<32xi32>
}

// The same at half a register (the suite's conv_nn step): rows repeated,
// as lanes are for a lane-wise window, and the first half of the sums taken.
// CHECK-LABEL: func.func @vrmpybusv_acc_half
// CHECK-NOT: vector.multi_reduction
// CHECK-DAG: vector.bitcast %arg0 : vector<64xi8> to vector<16xi32>
// CHECK-DAG: vector.bitcast %arg1 : vector<64xi8> to vector<16xi32>
// CHECK-DAG: vector.shuffle %arg2, %arg2 [0, 1, {{.*}}, 14, 15, 0, 1, {{.*}}, 14, 15] : vector<16xi32>, vector<16xi32>
// CHECK: hydride_hvx.v6_vrmpybusv_acc{{.*}} -> vector<32xi32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, {{.*}}, 14, 15] : vector<32xi32>, vector<32xi32>
// CHECK-NOT: vector.multi_reduction
func.func @vrmpybusv_acc_half(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// CHECK-LABEL: func.func @vrmpyubv
// CHECK: hydride_hvx.v6_vrmpyubv
func.func @vrmpyubv(%a: vector<128xi8>, %b: vector<128xi8>) -> vector<32xi32> {
  %z = arith.constant dense<0> : vector<32xi32>
  %ae = arith.extui %a : vector<128xi8> to vector<128xi32>
  %be = arith.extui %b : vector<128xi8> to vector<128xi32>
  %p = arith.muli %ae, %be : vector<128xi32>
  %p2 = vector.shape_cast %p : vector<128xi32> to vector<32x4xi32>
  %s = vector.multi_reduction <add>, %p2, %z [1] : vector<32x4xi32> to vector<32xi32>
  return %s : vector<32xi32>
}
