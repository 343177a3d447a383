// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache},convert-autollvm-to-arm)' %s | FileCheck %s
// max(a, b) - min(a, b) reads a and b twice: the window takes both readers,
// and its semantics read the subtraction as the absolute difference (at the
// bytes' width when they were extended), so it is one uabd.

// CHECK-LABEL: func.func @abd
// CHECK: "hydride_arm.vabdq_u8"(%arg0, %arg1)
// CHECK-NOT: arith.
func.func @abd(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<16xi8> {
  %mx = arith.maxui %a, %b : vector<16xi8>
  %mn = arith.minui %a, %b : vector<16xi8>
  %d = arith.subi %mx, %mn : vector<16xi8>
  return %d : vector<16xi8>
}
