// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache})' %s | FileCheck %s
// Windows wider than the target's registers (256 bits at x86-avx2) whose
// pieces are independent (lane-wise ops, shuffles that stay within a piece
// the same way in every piece) are synthesized once at the width of a
// register and applied to every piece: leaves cut by vector.shuffle, the
// pieces' results concatenated.
// Execution: Run/x86/pieces-avx2.test.

// CHECK-LABEL: func.func @adds_i16_x32
// CHECK-COUNT-2: autollvm.add_sat_s{{.*}} : vector<16xi16>
// CHECK: vector.shuffle {{.*}} : vector<16xi16>, vector<16xi16>
// CHECK-NOT: arith.
func.func @adds_i16_x32(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %lo = arith.constant dense<-32768> : vector<32xi32>
  %hi = arith.constant dense<32767> : vector<32xi32>
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %s = arith.addi %ae, %be : vector<32xi32>
  %c2 = arith.maxsi %s, %lo : vector<32xi32>
  %c3 = arith.minsi %c2, %hi : vector<32xi32>
  %t = arith.trunci %c3 : vector<32xi32> to vector<32xi16>
  return %t : vector<32xi16>
}

// Four pieces, concatenated pairwise.
// CHECK-LABEL: func.func @addus_u8_x128
// CHECK-COUNT-4: autollvm.add_sat_u{{.*}} : vector<32xi8>
// CHECK: vector.shuffle {{.*}} : vector<64xi8>, vector<64xi8>
func.func @addus_u8_x128(%a: vector<128xi8>, %b: vector<128xi8>) -> vector<128xi8> {
  %m = arith.constant dense<255> : vector<128xi16>
  %ae = arith.extui %a : vector<128xi8> to vector<128xi16>
  %be = arith.extui %b : vector<128xi8> to vector<128xi16>
  %s = arith.addi %ae, %be : vector<128xi16>
  %c = arith.minui %s, %m : vector<128xi16>
  %t = arith.trunci %c : vector<128xi16> to vector<128xi8>
  return %t : vector<128xi8>
}

// A rounding average of u8 at 512 bits.
// CHECK-LABEL: func.func @avg_u8_x64
// CHECK-COUNT-2: autollvm.{{[a-z_0-9]+}}{{.*}} : vector<32xi8>
// CHECK-NOT: arith.
func.func @avg_u8_x64(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %one = arith.constant dense<1> : vector<64xi16>
  %ae = arith.extui %a : vector<64xi8> to vector<64xi16>
  %be = arith.extui %b : vector<64xi8> to vector<64xi16>
  %s = arith.addi %ae, %be : vector<64xi16>
  %r = arith.addi %s, %one : vector<64xi16>
  %h = arith.shrui %r, %one : vector<64xi16>
  %t = arith.trunci %h : vector<64xi16> to vector<64xi8>
  return %t : vector<64xi8>
}

// A constant that differs from piece to piece is not cut: left to LLVM.
// CHECK-LABEL: func.func @varying_constant
// CHECK: arith.minui
func.func @varying_constant(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %m = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : vector<32xi32>
  %ae = arith.extui %a : vector<32xi16> to vector<32xi32>
  %be = arith.extui %b : vector<32xi16> to vector<32xi32>
  %s = arith.addi %ae, %be : vector<32xi32>
  %c = arith.minui %s, %m : vector<32xi32>
  %t = arith.trunci %c : vector<32xi32> to vector<32xi16>
  return %t : vector<32xi16>
}

// An n-D window is cut as its row-major flattening (the shape_casts are
// lane-wise too): 2x32 i16 at 256 bits is four pieces of 16 lanes.
// CHECK-LABEL: func.func @adds_i16_2x32
// CHECK-COUNT-4: autollvm.add_sat_s{{.*}} : vector<16xi16>
// CHECK-NOT: arith.
func.func @adds_i16_2x32(%a: vector<64xi16>, %b: vector<64xi16>) -> vector<64xi16> {
  %lo = arith.constant dense<-32768> : vector<2x32xi32>
  %hi = arith.constant dense<32767> : vector<2x32xi32>
  %a2 = vector.shape_cast %a : vector<64xi16> to vector<2x32xi16>
  %b2 = vector.shape_cast %b : vector<64xi16> to vector<2x32xi16>
  %ae = arith.extsi %a2 : vector<2x32xi16> to vector<2x32xi32>
  %be = arith.extsi %b2 : vector<2x32xi16> to vector<2x32xi32>
  %s = arith.addi %ae, %be : vector<2x32xi32>
  %c2 = arith.maxsi %s, %lo : vector<2x32xi32>
  %c3 = arith.minsi %c2, %hi : vector<2x32xi32>
  %t = arith.trunci %c3 : vector<2x32xi32> to vector<2x32xi16>
  %r = vector.shape_cast %t : vector<2x32xi16> to vector<64xi16>
  return %r : vector<64xi16>
}

// A pairwise sum of products (even and odd lanes, within each piece alike)
// at 512 bits: two vpmaddwd.
// CHECK-LABEL: func.func @madd_i16_x32
// CHECK-COUNT-2: autollvm.{{[a-z_0-9]+}}{{.*}} : vector<16xi16> to vector<8xi32>
// CHECK-NOT: arith.
func.func @madd_i16_x32(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<16xi32> {
  %ae = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %p = arith.muli %ae, %be : vector<32xi32>
  %even = vector.shuffle %p, %p [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xi32>, vector<32xi32>
  %odd = vector.shuffle %p, %p [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xi32>, vector<32xi32>
  %h = arith.addi %even, %odd : vector<16xi32>
  return %h : vector<16xi32>
}
