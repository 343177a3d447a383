// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s
// A shift by the element width or more is poison in its own lane, not
// undefined behaviour of the whole window: the other lanes must still be
// computed. Here lane 15 shifts a byte by 9, so every input has one poison
// lane, and lanes 0 to 14 are a + b. A program that differs from a + b in
// them (a saturating add) is not a rewrite of this window.

// CHECK-LABEL: func.func @one_lane_out_of_range
// CHECK-NOT: autollvm.
// CHECK: arith.addi
// CHECK-NEXT: arith.shrui
// CHECK-NEXT: return
func.func @one_lane_out_of_range(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %c = arith.constant dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9]> : vector<16xi8>
  %s = arith.addi %a, %b : vector<16xi8>
  %r = arith.shrui %s, %c : vector<16xi8>
  return %r : vector<16xi8>
}

// Without a shift out of range, a window is rewritten as before: a
// clamped u8 sum is one saturating add.
// CHECK-LABEL: func.func @in_range
// CHECK: autollvm.add_sat_u
func.func @in_range(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %m = arith.constant dense<255> : vector<16xi16>
  %ae = arith.extui %a : vector<16xi8> to vector<16xi16>
  %be = arith.extui %b : vector<16xi8> to vector<16xi16>
  %s = arith.addi %ae, %be : vector<16xi16>
  %c = arith.minui %s, %m : vector<16xi16>
  %t = arith.trunci %c : vector<16xi16> to vector<16xi8>
  return %t : vector<16xi8>
}
