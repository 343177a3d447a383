// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache}))' %s | FileCheck %s
// The same computations as one instruction, spelt as a user might: at wider
// intermediates than the instruction's, and with a value read twice. Range
// narrowing (passes/src/synth/narrow.rs) brings each window's semantics to
// the widths that hold its values exactly before the search and the proof,
// and one proof covers every result lane of the same shape
// (passes/src/synth/proof.rs), so the spelling does not decide the result.

// vpmaddubsw: pairs of u8 x s8 products summed and clamped, in 32 bits.
// CHECK-LABEL: func.func @maddubs_in_i32
// CHECK: autollvm.dot_sat_su_widen %arg0, %arg1
// CHECK-NOT: arith.muli
func.func @maddubs_in_i32(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<32xi16> {
  %lo = arith.constant dense<-32768> : vector<32xi32>
  %hi = arith.constant dense<32767> : vector<32xi32>
  %zero = arith.constant dense<0> : vector<32xi32>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<32x2xi32>
  %s = vector.multi_reduction <add>, %p2, %zero [1] : vector<32x2xi32> to vector<32xi32>
  %c1 = arith.maxsi %s, %lo : vector<32xi32>
  %c2 = arith.minsi %c1, %hi : vector<32xi32>
  %t = arith.trunci %c2 : vector<32xi32> to vector<32xi16>
  return %t : vector<32xi16>
}

// vpdpbusds: a saturating 4-way dot-accumulate computed in 64 bits.
// CHECK-LABEL: func.func @dpbusds_in_i64
// CHECK: autollvm.dot_acc_sat_su_widen %arg1, %arg2, %arg0
// CHECK-NOT: arith.muli
func.func @dpbusds_in_i64(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>) -> vector<16xi32> {
  %lo = arith.constant dense<-2147483648> : vector<16xi64>
  %hi = arith.constant dense<2147483647> : vector<16xi64>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi64>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi64>
  %p = arith.muli %ae, %be : vector<64xi64>
  %p4 = vector.shape_cast %p : vector<64xi64> to vector<16x4xi64>
  %acc64 = arith.extsi %acc : vector<16xi32> to vector<16xi64>
  %s = vector.multi_reduction <add>, %p4, %acc64 [1] : vector<16x4xi64> to vector<16xi64>
  %c1 = arith.maxsi %s, %lo : vector<16xi64>
  %c2 = arith.minsi %c1, %hi : vector<16xi64>
  %t = arith.trunci %c2 : vector<16xi64> to vector<16xi32>
  return %t : vector<16xi32>
}

// vpaddusb: the clamp written as a compare and select, so the sum is read
// twice; the window takes it once both readers are inside.
// CHECK-LABEL: func.func @adds_by_select
// CHECK: autollvm.{{.*}} %arg0, %arg1
// CHECK-NOT: arith.select
func.func @adds_by_select(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %max = arith.constant dense<255> : vector<64xi16>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi16>
  %be = arith.extui %b : vector<64xi8> to vector<64xi16>
  %s = arith.addi %ae, %be : vector<64xi16>
  %over = arith.cmpi ugt, %s, %max : vector<64xi16>
  %c = arith.select %over, %max, %s : vector<64xi1>, vector<64xi16>
  %t = arith.trunci %c : vector<64xi16> to vector<64xi8>
  return %t : vector<64xi8>
}

// vpsadbw: sums of absolute differences written as max - min in 64-bit
// lanes. Each lane's proof shares the two spellings of the difference
// (passes/src/synth/cut_points.rs) before the query over the sum.
// CHECK-LABEL: func.func @sad_in_i64
// CHECK: %[[S:.*]] = autollvm.sad_widen %arg0, %arg1
// CHECK: vector.bitcast %[[S]] : vector<32xi16> to vector<8xi64>
// CHECK-NOT: arith.maxui
func.func @sad_in_i64(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<8xi64> {
  %zero = arith.constant dense<0> : vector<8xi64>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi64>
  %be = arith.extui %b : vector<64xi8> to vector<64xi64>
  %mx = arith.maxui %ae, %be : vector<64xi64>
  %mn = arith.minui %ae, %be : vector<64xi64>
  %d = arith.subi %mx, %mn : vector<64xi64>
  %d2 = vector.shape_cast %d : vector<64xi64> to vector<8x8xi64>
  %s = vector.multi_reduction <add>, %d2, %zero [1] : vector<8x8xi64> to vector<8xi64>
  return %s : vector<8xi64>
}
