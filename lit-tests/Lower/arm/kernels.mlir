// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon-dotprod-i8mm cache-dir=%t.cache},convert-autollvm-to-arm)' %s | FileCheck %s
// At Armv8.0 the dot products have no instruction; the rest is the same.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache remarks=true},convert-autollvm-to-arm)' %s 2>%t.remarks | FileCheck %s --check-prefix=V80
// RUN: FileCheck %s --check-prefix=V80-REMARK < %t.remarks
// The kernels of Run/arm/kernels.test at NEON's 128 bits: each window is
// written as plain arith/vector code, and synthesis finds the NEON
// instruction that computes it, with no pattern written for any of them.

// CHECK-LABEL: func.func @sqadd_i16
// CHECK: hydride_arm.vqaddq_s16
// CHECK-NOT: arith.maxsi
// V80-LABEL: func.func @sqadd_i16
// V80: hydride_arm.vqaddq_s16
func.func @sqadd_i16(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %lo = arith.constant dense<-32768> : vector<8xi32>
  %hi = arith.constant dense<32767> : vector<8xi32>
  %ae = arith.extsi %a : vector<8xi16> to vector<8xi32>
  %be = arith.extsi %b : vector<8xi16> to vector<8xi32>
  %s = arith.addi %ae, %be : vector<8xi32>
  %c1 = arith.maxsi %s, %lo : vector<8xi32>
  %c2 = arith.minsi %c1, %hi : vector<8xi32>
  %r = arith.trunci %c2 : vector<8xi32> to vector<8xi16>
  return %r : vector<8xi16>
}

// CHECK-LABEL: func.func @uqadd_u8
// CHECK: hydride_arm.vqaddq_u8
func.func @uqadd_u8(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %hi = arith.constant dense<255> : vector<16xi16>
  %ae = arith.extui %a : vector<16xi8> to vector<16xi16>
  %be = arith.extui %b : vector<16xi8> to vector<16xi16>
  %s = arith.addi %ae, %be : vector<16xi16>
  %c = arith.minui %s, %hi : vector<16xi16>
  %r = arith.trunci %c : vector<16xi16> to vector<16xi8>
  return %r : vector<16xi8>
}

// CHECK-LABEL: func.func @uqsub_u16
// CHECK: hydride_arm.vqsubq_u16
func.func @uqsub_u16(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %m = arith.maxui %a, %b : vector<8xi16>
  %r = arith.subi %m, %b : vector<8xi16>
  return %r : vector<8xi16>
}

// CHECK-LABEL: func.func @urhadd_u8
// CHECK: hydride_arm.vrhaddq_u8
func.func @urhadd_u8(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %one = arith.constant dense<1> : vector<16xi16>
  %ae = arith.extui %a : vector<16xi8> to vector<16xi16>
  %be = arith.extui %b : vector<16xi8> to vector<16xi16>
  %s = arith.addi %ae, %be : vector<16xi16>
  %s1 = arith.addi %s, %one : vector<16xi16>
  %h = arith.shrui %s1, %one : vector<16xi16>
  %r = arith.trunci %h : vector<16xi16> to vector<16xi8>
  return %r : vector<16xi8>
}

// The signed halving add, at Armv8.0 too (shadd is base NEON, not crypto).
// CHECK-LABEL: func.func @shadd_i16
// CHECK: hydride_arm.vhaddq_s16
// CHECK-NOT: arith.
// V80-LABEL: func.func @shadd_i16
// V80: hydride_arm.vhaddq_s16
func.func @shadd_i16(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %one = arith.constant dense<1> : vector<8xi32>
  %ae = arith.extsi %a : vector<8xi16> to vector<8xi32>
  %be = arith.extsi %b : vector<8xi16> to vector<8xi32>
  %s = arith.addi %ae, %be : vector<8xi32>
  %h = arith.shrsi %s, %one : vector<8xi32>
  %r = arith.trunci %h : vector<8xi32> to vector<8xi16>
  return %r : vector<8xi16>
}

// CHECK-LABEL: func.func @uabd_u8
// CHECK: hydride_arm.vabdq_u8
func.func @uabd_u8(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %hi = arith.maxui %a, %b : vector<16xi8>
  %lo = arith.minui %a, %b : vector<16xi8>
  %r = arith.subi %hi, %lo : vector<16xi8>
  return %r : vector<16xi8>
}

// CHECK-LABEL: func.func @smull_i8
// CHECK: hydride_arm.vmull_s8
func.func @smull_i8(%a: vector<8xi8>, %b: vector<8xi8>) -> vector<8xi16> {
  %ae = arith.extsi %a : vector<8xi8> to vector<8xi16>
  %be = arith.extsi %b : vector<8xi8> to vector<8xi16>
  %r = arith.muli %ae, %be : vector<8xi16>
  return %r : vector<8xi16>
}

// CHECK-LABEL: func.func @sdot_i8
// CHECK: hydride_arm.vdotq_s32
// CHECK-NOT: arith.muli
// V80-LABEL: func.func @sdot_i8
// V80-NOT: hydride_arm.vdotq
// V80: return
func.func @sdot_i8(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %ae = arith.extsi %a : vector<16xi8> to vector<16xi32>
  %be = arith.extsi %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %ae, %be : vector<16xi32>
  %p2 = vector.shape_cast %p : vector<16xi32> to vector<4x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<4x4xi32> to vector<4xi32>
  return %s : vector<4xi32>
}

// CHECK-LABEL: func.func @udot_u8
// CHECK: hydride_arm.vdotq_u32
func.func @udot_u8(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %ae = arith.extui %a : vector<16xi8> to vector<16xi32>
  %be = arith.extui %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %ae, %be : vector<16xi32>
  %p2 = vector.shape_cast %p : vector<16xi32> to vector<4x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<4x4xi32> to vector<4xi32>
  return %s : vector<4xi32>
}

// CHECK-LABEL: func.func @usdot_u8s8
// CHECK: hydride_arm.vusdotq_s32
// V80-LABEL: func.func @usdot_u8s8
// V80-NOT: hydride_arm.vusdot
// V80: return
func.func @usdot_u8s8(%a: vector<16xi8>, %b: vector<16xi8>, %acc: vector<4xi32>) -> vector<4xi32> {
  %ae = arith.extui %a : vector<16xi8> to vector<16xi32>
  %be = arith.extsi %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %ae, %be : vector<16xi32>
  %p2 = vector.shape_cast %p : vector<16xi32> to vector<4x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<4x4xi32> to vector<4xi32>
  return %s : vector<4xi32>
}

// Four times NEON's width: the rows of the reduction cut into four
// register-sized pieces, each the 128-bit dot product above, synthesized and
// proved once (`passes/src/synth/pieces.rs`); the pieces' results are
// concatenated.
// CHECK-LABEL: func.func @usdot_u8s8_x4
// CHECK-NOT: vector.multi_reduction
// CHECK-COUNT-4: hydride_arm.vusdotq_s32"{{.*}} -> vector<4xi32>
// CHECK: vector.shuffle {{.*}} : vector<8xi32>, vector<8xi32>
// CHECK-NOT: vector.multi_reduction
// V80-LABEL: func.func @usdot_u8s8_x4
// V80-NOT: hydride_arm.vusdot
// V80: return
func.func @usdot_u8s8_x4(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// V80-REMARK: remark: window of {{[0-9]+}} ops left unchanged (target aarch64-neon)

// Instructions clang lowers to more than one LLVM operation are candidates
// too: their lowering is clang's IR for them (`vabaq_u8` is `uabd` then
// `add`, `vabal_u8` adds `zext`).
// CHECK-LABEL: func.func @uaba_u8
// CHECK: hydride_arm.vabaq_u8
func.func @uaba_u8(%acc: vector<16xi8>, %a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %hi = arith.maxui %a, %b : vector<16xi8>
  %lo = arith.minui %a, %b : vector<16xi8>
  %d = arith.subi %hi, %lo : vector<16xi8>
  %r = arith.addi %acc, %d : vector<16xi8>
  return %r : vector<16xi8>
}

// CHECK-LABEL: func.func @uabal_u8
// CHECK: hydride_arm.vabal_u8
func.func @uabal_u8(%acc: vector<8xi16>, %a: vector<8xi8>, %b: vector<8xi8>) -> vector<8xi16> {
  %hi = arith.maxui %a, %b : vector<8xi8>
  %lo = arith.minui %a, %b : vector<8xi8>
  %d = arith.subi %hi, %lo : vector<8xi8>
  %w = arith.extui %d : vector<8xi8> to vector<8xi16>
  %r = arith.addi %acc, %w : vector<8xi16>
  return %r : vector<8xi16>
}

// With an immediate: clang's IR is recorded for each of its values (a
// rounding shift right by 3, accumulated: `vrsraq_n_s16`, whose IR is
// `srshl` by -3 then `add`).
// CHECK-LABEL: func.func @srsra_i16
// CHECK: hydride_arm.vrsraq_n_s16
// CHECK-SAME: 3
func.func @srsra_i16(%acc: vector<8xi16>, %a: vector<8xi16>) -> vector<8xi16> {
  %half = arith.constant dense<4> : vector<8xi32>
  %three = arith.constant dense<3> : vector<8xi32>
  %ae = arith.extsi %a : vector<8xi16> to vector<8xi32>
  %t = arith.addi %ae, %half : vector<8xi32>
  %h = arith.shrsi %t, %three : vector<8xi32>
  %n = arith.trunci %h : vector<8xi32> to vector<8xi16>
  %r = arith.addi %acc, %n : vector<8xi16>
  return %r : vector<8xi16>
}
