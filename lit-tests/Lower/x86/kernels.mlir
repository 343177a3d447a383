// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 remarks=true cache-dir=%t.cache})' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// A second run answers from the memo and gives the same IR.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=WARM
// The kernel families of the synthesis lowering: each window becomes one
// autollvm class op, or two steps (class ops and swizzles), proved equal by
// Z3 and cheaper than the window's ops; other windows stay as they are,
// with a remark saying why.

// CHECK-LABEL: func.func @dot_u8s8_acc
// CHECK: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
// CHECK-NOT: arith.muli
// CHECK: return
// WARM-LABEL: func.func @dot_u8s8_acc
// WARM: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
func.func @dot_u8s8_acc(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// CHECK-LABEL: func.func @madd_i16
// CHECK: autollvm.dot_s %arg0, %arg1
// CHECK-NOT: arith.muli
func.func @madd_i16(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<16xi32> {
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %p = arith.muli %ae, %be : vector<32xi32>
  %p2 = vector.shape_cast %p : vector<32xi32> to vector<16x2xi32>
  %z = arith.constant dense<0> : vector<16xi32>
  %s = vector.multi_reduction <add>, %p2, %z [1] : vector<16x2xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// CHECK-LABEL: func.func @adds_i16_clamp
// CHECK: autollvm.add_sat_s %arg0, %arg1{{.*}} : vector<32xi16>
// CHECK-NOT: arith.maxsi
func.func @adds_i16_clamp(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %lo = arith.constant dense<-32768> : vector<32xi32>
  %hi = arith.constant dense<32767> : vector<32xi32>
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %s = arith.addi %ae, %be : vector<32xi32>
  %c1 = arith.maxsi %s, %lo : vector<32xi32>
  %c2 = arith.minsi %c1, %hi : vector<32xi32>
  %r = arith.trunci %c2 : vector<32xi32> to vector<32xi16>
  return %r : vector<32xi16>
}

// CHECK-LABEL: func.func @subs_u8
// CHECK: autollvm.sub_sat_u %arg0, %arg1
func.func @subs_u8(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %zero = arith.constant dense<0> : vector<64xi16>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi16>
  %be = arith.extui %b : vector<64xi8> to vector<64xi16>
  %d = arith.subi %ae, %be : vector<64xi16>
  %c = arith.maxsi %d, %zero : vector<64xi16>
  %r = arith.trunci %c : vector<64xi16> to vector<64xi8>
  return %r : vector<64xi8>
}

// CHECK-LABEL: func.func @avg_u8
// CHECK: autollvm.avg_u %arg0, %arg1
func.func @avg_u8(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %one = arith.constant dense<1> : vector<64xi16>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi16>
  %be = arith.extui %b : vector<64xi8> to vector<64xi16>
  %s = arith.addi %ae, %be : vector<64xi16>
  %s1 = arith.addi %s, %one : vector<64xi16>
  %h = arith.shrui %s1, %one : vector<64xi16>
  %r = arith.trunci %h : vector<64xi16> to vector<64xi8>
  return %r : vector<64xi8>
}

// CHECK-LABEL: func.func @mulhi_i16
// CHECK: autollvm.mul_s %arg0, %arg1
func.func @mulhi_i16(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %sh = arith.constant dense<16> : vector<32xi32>
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %p = arith.muli %ae, %be : vector<32xi32>
  %h = arith.shrsi %p, %sh : vector<32xi32>
  %r = arith.trunci %h : vector<32xi32> to vector<32xi16>
  return %r : vector<32xi16>
}

// CHECK-LABEL: func.func @absdiff_u8
// CHECK: return
func.func @absdiff_u8(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %mx = arith.maxui %a, %b : vector<64xi8>
  %mn = arith.minui %a, %b : vector<64xi8>
  %d = arith.subi %mx, %mn : vector<64xi8>
  return %d : vector<64xi8>
}

// A max and a min are two instructions either way: no cheaper program, unchanged.
// CHECK-LABEL: func.func @clamp_i16
// CHECK-NOT: autollvm
// CHECK: return
func.func @clamp_i16(%a: vector<32xi16>) -> vector<32xi16> {
  %lo = arith.constant dense<-100> : vector<32xi16>
  %hi = arith.constant dense<100> : vector<32xi16>
  %c1 = arith.maxsi %a, %lo : vector<32xi16>
  %c2 = arith.minsi %c1, %hi : vector<32xi16>
  return %c2 : vector<32xi16>
}

// CHECK-LABEL: func.func @packus_i16
// CHECK: return
func.func @packus_i16(%a: vector<32xi16>) -> vector<32xi8> {
  %lo = arith.constant dense<0> : vector<32xi16>
  %hi = arith.constant dense<255> : vector<32xi16>
  %c1 = arith.maxsi %a, %lo : vector<32xi16>
  %c2 = arith.minsi %c1, %hi : vector<32xi16>
  %r = arith.trunci %c2 : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}

// 8 x i16 saturated to u8: packuswb of the input with itself, then its low
// half (a swizzle step).
// CHECK-LABEL: func.func @packus_i16_x8
// CHECK: %[[P:.*]] = autollvm.pack_sat_u_in_lanes %arg0, %arg0{{.*}} : vector<8xi16> to vector<16xi8>
// CHECK: vector.shuffle {{.*}} [0] : vector<2xi64>, vector<2xi64>
// CHECK-NOT: arith.
// CHECK: return
func.func @packus_i16_x8(%a: vector<8xi16>) -> vector<8xi8> {
  %lo = arith.constant dense<0> : vector<8xi16>
  %hi = arith.constant dense<255> : vector<8xi16>
  %c1 = arith.maxsi %a, %lo : vector<8xi16>
  %c2 = arith.minsi %c1, %hi : vector<8xi16>
  %r = arith.trunci %c2 : vector<8xi16> to vector<8xi8>
  return %r : vector<8xi8>
}

// Two i16 vectors saturated to i8 and concatenated: packsswb.
// CHECK-LABEL: func.func @packs_i16_x16
// CHECK: autollvm.pack_sat_s_in_lanes %arg0, %arg1{{.*}} : vector<8xi16> to vector<16xi8>
// CHECK-NOT: arith.
// CHECK: return
func.func @packs_i16_x16(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<16xi8> {
  %lo = arith.constant dense<-128> : vector<8xi16>
  %hi = arith.constant dense<127> : vector<8xi16>
  %a1 = arith.maxsi %a, %lo : vector<8xi16>
  %a2 = arith.minsi %a1, %hi : vector<8xi16>
  %at = arith.trunci %a2 : vector<8xi16> to vector<8xi8>
  %b1 = arith.maxsi %b, %lo : vector<8xi16>
  %b2 = arith.minsi %b1, %hi : vector<8xi16>
  %bt = arith.trunci %b2 : vector<8xi16> to vector<8xi8>
  %r = vector.shuffle %at, %bt [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
  return %r : vector<16xi8>
}

// Pairwise sums of two concatenated vectors (deinterleave, add): phaddw.
// CHECK-LABEL: func.func @hadd_i16
// CHECK: autollvm.add_or_shl %arg0, %arg1 {{.*}}bit = 127 : i32
// CHECK-NOT: vector.deinterleave
// CHECK: return
func.func @hadd_i16(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %c = vector.shuffle %a, %b [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi16>, vector<8xi16>
  %e, %o = vector.deinterleave %c : vector<16xi16> -> vector<8xi16>
  %r = arith.addi %e, %o : vector<8xi16>
  return %r : vector<8xi16>
}

// The high half of a full product (a multi-result op inside the window),
// then a clamped add: two steps, vpmulhw then vpaddsw.
// CHECK-LABEL: func.func @mulhi_adds_i16
// CHECK: %[[H:.*]] = autollvm.mul_s %arg0, %arg1{{.*}} : vector<8xi16>
// CHECK: autollvm.add_sat_s %arg2, %[[H]]
// CHECK-NOT: arith.
// CHECK: return
func.func @mulhi_adds_i16(%a: vector<8xi16>, %b: vector<8xi16>, %c: vector<8xi16>) -> vector<8xi16> {
  %lo = arith.constant dense<-32768> : vector<8xi32>
  %hi = arith.constant dense<32767> : vector<8xi32>
  %l, %h = arith.mulsi_extended %a, %b : vector<8xi16>
  %he = arith.extsi %h : vector<8xi16> to vector<8xi32>
  %ce = arith.extsi %c : vector<8xi16> to vector<8xi32>
  %s = arith.addi %he, %ce : vector<8xi32>
  %c1 = arith.maxsi %s, %lo : vector<8xi32>
  %c2 = arith.minsi %c1, %hi : vector<8xi32>
  %r = arith.trunci %c2 : vector<8xi32> to vector<8xi16>
  return %r : vector<8xi16>
}

// Squares summed in pairs onto an accumulator (one value read twice by the
// product): vpdpwssd with the same operand twice.
// CHECK-LABEL: func.func @sumsq_i16_acc
// CHECK: autollvm.dot_acc_s_widen %arg0, %arg0, %arg1
// CHECK-NOT: arith.
// CHECK: return
func.func @sumsq_i16_acc(%x: vector<32xi16>, %acc: vector<16xi32>) -> vector<16xi32> {
  %e = arith.extsi %x : vector<32xi16> to vector<32xi32>
  %sq = arith.muli %e, %e : vector<32xi32>
  %sq2 = vector.shape_cast %sq : vector<32xi32> to vector<16x2xi32>
  %s = vector.multi_reduction <add>, %sq2, %acc [1] : vector<16x2xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

// CHECK-LABEL: func.func @interleave_i8
// CHECK: return
func.func @interleave_i8(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<64xi8> {
  %z = arith.constant dense<1> : vector<32xi8>
  %a1 = arith.addi %a, %z : vector<32xi8>
  %i = vector.interleave %a1, %b : vector<32xi8> -> vector<64xi8>
  return %i : vector<64xi8>
}

// A clamp one short of the i16 range is no saturating add: left alone.
// REMARK: kernels.mlir:[[@LINE+12]]:{{.*}} remark: window of 6 ops left unchanged (target x86-avx512): no program of one, two or three target instructions computes this window
// CHECK-LABEL: func.func @negative_adds_off_by_one
// CHECK-NOT: autollvm
// CHECK: arith.maxsi
func.func @negative_adds_off_by_one(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %lo = arith.constant dense<-32767> : vector<32xi32>
  %hi = arith.constant dense<32767> : vector<32xi32>
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %s = arith.addi %ae, %be : vector<32xi32>
  %c1 = arith.maxsi %s, %lo : vector<32xi32>
  %c2 = arith.minsi %c1, %hi : vector<32xi32>
  %r = arith.trunci %c2 : vector<32xi32> to vector<32xi16>
  return %r : vector<32xi16>
}
