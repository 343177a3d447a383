// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=hexagon-hvx128 cache-dir=%t.cache})' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=hexagon-hvx128 cache-dir=%t.cache remarks=true})' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=hexagon-hvx128 cache-dir=%t.cache},convert-autollvm-to-hvx)' %s | FileCheck %s --check-prefix=HVX
// A stencil's multiply-accumulate chain, sum of w_k * zext(x_k), on Hexagon:
// the inputs are paired, each pair's bytes interleaved into one register
// and multiplied by its two weights (interleaved likewise) into 16-bit
// products, the first input's in the low register of the pair and the
// second's in the high one (vmpybusv, found by the search for the pair;
// vmpybusv_acc adds the chain so far). At the end the two registers are
// added. Six inputs: three pairs.

// CHECK-LABEL: func.func @weighted_sum
// The pairs' weights, bytes interleaved (printed in hex: 6 1 6 1 …, 4 -1 …, 4 2 …).
// CHECK: arith.constant dense<"0x06010601
// CHECK: arith.constant dense<"0x04FF04FF
// CHECK: arith.constant dense<"0x04020402
// CHECK: vector.shuffle {{.*}} [0, 64, 1, 65, 2, 66, {{.*}} : vector<64xi8>, vector<64xi8>
// CHECK-NEXT: autollvm.dot_
// CHECK-SAME: : vector<128xi8> to vector<128xi16>
// CHECK-NEXT: vector.shuffle {{.*}} [0, 64, 1, 65,
// CHECK-NEXT: autollvm.dot_acc
// CHECK-NEXT: vector.shuffle {{.*}} [0, 64, 1, 65,
// CHECK-NEXT: autollvm.dot_acc
// CHECK-NEXT: vector.shuffle {{.*}} [0, 1, 2, {{.*}}, 63] : vector<128xi16>, vector<128xi16>
// CHECK-NEXT: vector.shuffle {{.*}} [64, 65, {{.*}}, 127] : vector<128xi16>, vector<128xi16>
// CHECK-NEXT: autollvm.add
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.extui
// CHECK: return
// HVX-LABEL: func.func @weighted_sum
// HVX: hydride_hvx.v6_vmpybusv
// HVX-COUNT-2: hydride_hvx.v6_vmpybusv_acc
// HVX: hydride_hvx.v6_vaddh
func.func @weighted_sum(%a: vector<64xi8>, %b: vector<64xi8>, %c: vector<64xi8>, %d: vector<64xi8>, %e: vector<64xi8>, %f: vector<64xi8>) -> vector<64xi16> {
  %x = arith.extui %a : vector<64xi8> to vector<64xi16>
  %y = arith.extui %b : vector<64xi8> to vector<64xi16>
  %z = arith.extui %c : vector<64xi8> to vector<64xi16>
  %u = arith.extui %d : vector<64xi8> to vector<64xi16>
  %v = arith.extui %e : vector<64xi8> to vector<64xi16>
  %w = arith.extui %f : vector<64xi8> to vector<64xi16>
  %c6 = arith.constant dense<6> : vector<64xi16>
  %c4 = arith.constant dense<4> : vector<64xi16>
  %c2 = arith.constant dense<2> : vector<64xi16>
  %x6 = arith.muli %x, %c6 : vector<64xi16>
  %y4 = arith.muli %y, %c4 : vector<64xi16>
  %s = arith.addi %x6, %y4 : vector<64xi16>
  %t = arith.subi %s, %z : vector<64xi16>
  %u4 = arith.muli %u, %c4 : vector<64xi16>
  %r0 = arith.addi %t, %u4 : vector<64xi16>
  %v2 = arith.muli %v, %c2 : vector<64xi16>
  %r1 = arith.addi %r0, %v2 : vector<64xi16>
  %r = arith.addi %r1, %w : vector<64xi16>
  return %r : vector<64xi16>
}

// An input's extension also read outside any chain stays: the chain's
// rewrite does not save it, and the pairs cost more than the rest.
// REMARK: remark: {{.*}}as a sum of 6 products by constants, two at a time: the program costs {{[0-9]+}} instructions, not fewer than the chain's {{[0-9]+}} in target registers
// CHECK-LABEL: func.func @tap_read_elsewhere
// CHECK-NOT: autollvm.dot
// CHECK: return
func.func @tap_read_elsewhere(%a: vector<64xi8>, %b: vector<64xi8>, %c: vector<64xi8>, %d: vector<64xi8>, %e: vector<64xi8>, %f: vector<64xi8>) -> (vector<64xi16>, vector<64xi16>) {
  %x = arith.extui %a : vector<64xi8> to vector<64xi16>
  %y = arith.extui %b : vector<64xi8> to vector<64xi16>
  %z = arith.extui %c : vector<64xi8> to vector<64xi16>
  %u = arith.extui %d : vector<64xi8> to vector<64xi16>
  %v = arith.extui %e : vector<64xi8> to vector<64xi16>
  %w = arith.extui %f : vector<64xi8> to vector<64xi16>
  %c6 = arith.constant dense<6> : vector<64xi16>
  %c4 = arith.constant dense<4> : vector<64xi16>
  %c2 = arith.constant dense<2> : vector<64xi16>
  %x6 = arith.muli %x, %c6 : vector<64xi16>
  %y4 = arith.muli %y, %c4 : vector<64xi16>
  %s = arith.addi %x6, %y4 : vector<64xi16>
  %t = arith.subi %s, %z : vector<64xi16>
  %u4 = arith.muli %u, %c4 : vector<64xi16>
  %r0 = arith.addi %t, %u4 : vector<64xi16>
  %v2 = arith.muli %v, %c2 : vector<64xi16>
  %r1 = arith.addi %r0, %v2 : vector<64xi16>
  %r = arith.addi %r1, %w : vector<64xi16>
  %m0 = arith.maxui %x, %y : vector<64xi16>
  %m1 = arith.maxui %z, %u : vector<64xi16>
  %m2 = arith.maxui %v, %w : vector<64xi16>
  %m3 = arith.maxui %m0, %m1 : vector<64xi16>
  %m = arith.maxui %m3, %m2 : vector<64xi16>
  return %r, %m : vector<64xi16>, vector<64xi16>
}
