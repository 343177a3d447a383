// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(convert-hydride-x86-to-llvm)' %s -split-input-file -verify-diagnostics | FileCheck %s
// Target ops become calls of the LLVM intrinsic clang emits for them, with
// operands bitcast to its types and a select on the mask for mask forms.

// CHECK-LABEL: func.func @dot
// CHECK: %[[D:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%arg0, %arg1, %arg2)
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<16xi32>
// CHECK: llvm.select %arg3, %{{.*}}, %[[Z]] : vector<16xi1>, vector<16xi32>
// CHECK-NOT: hydride_x86
func.func @dot(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>, %k: vector<16xi1>) -> vector<16xi32> {
  %0 = "hydride_x86.mm512_dpbusd_epi32"(%acc, %a, %b) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  %1 = "hydride_x86.mm512_maskz_dpbusd_epi32"(%k, %0, %a, %b) : (vector<16xi1>, vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  return %1 : vector<16xi32>
}

// -----

// Merge masking keeps the pass-through's elements; a 4-element op under an
// 8-bit mask selects on the mask's first 4 bits.
// CHECK-LABEL: func.func @madd52
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpmadd52l.uq.256"(%arg0, %arg2, %arg3)
// CHECK: %[[M:.*]] = llvm.shufflevector %arg1, %arg1 [0, 1, 2, 3] : vector<8xi1>
// CHECK: llvm.select %[[M]], %[[R]], %arg0 : vector<4xi1>, vector<4xi64>
func.func @madd52(%a: vector<4xi64>, %k: vector<8xi1>, %b: vector<4xi64>, %c: vector<4xi64>) -> vector<4xi64> {
  %0 = "hydride_x86.mm256_mask_madd52lo_epu64"(%a, %k, %b, %c) : (vector<4xi64>, vector<8xi1>, vector<4xi64>, vector<4xi64>) -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// Immediates become constants of the intrinsic's parameter type.
// CHECK-LABEL: func.func @affine
// CHECK: %[[I:.*]] = llvm.mlir.constant(5 : i8) : i8
// CHECK: llvm.call_intrinsic "llvm.x86.vgf2p8affineqb.512"(%{{.*}}, %{{.*}}, %[[I]])
func.func @affine(%x: vector<8xi64>, %a: vector<8xi64>) -> vector<8xi64> {
  %0 = "hydride_x86.mm512_gf2p8affine_epi64_epi8"(%x, %a) {b = 5 : i32} : (vector<8xi64>, vector<8xi64>) -> vector<8xi64>
  return %0 : vector<8xi64>
}

// -----

// psign of a value by itself is its absolute value: the generic llvm.abs
// (MIN stays MIN, so not poison), which LLVM's optimizer understands, as
// clang's _mm256_abs_epi16 is. psign by another value stays the call.
// CHECK-LABEL: func.func @sign_of_itself
// CHECK: %[[F:.*]] = llvm.mlir.constant(false) : i1
// CHECK: llvm.call_intrinsic "llvm.abs.v16i16"(%arg0, %[[F]]) : (vector<16xi16>, i1) -> vector<16xi16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx2.psign.w"(%arg0, %arg1)
// CHECK-NOT: hydride_x86
func.func @sign_of_itself(%x: vector<16xi16>, %y: vector<16xi16>) -> (vector<16xi16>, vector<16xi16>) {
  %0 = "hydride_x86.mm256_sign_epi16"(%x, %x) : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  %1 = "hydride_x86.mm256_sign_epi16"(%x, %y) : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %0, %1 : vector<16xi16>, vector<16xi16>
}

// -----

// Instructions clang lowers to generic LLVM IR become that IR, inlined:
// operands bitcast to clang's vector types, its operations, the result
// bitcast back.
// CHECK-LABEL: func.func @generic
// CHECK-NOT: llvm.call
// CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<8xi16> to vector<2xi64>
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : vector<8xi16> to vector<2xi64>
// CHECK: %[[A16:.*]] = llvm.bitcast %[[A]] : vector<2xi64> to vector<8xi16>
// CHECK: %[[B16:.*]] = llvm.bitcast %[[B]] : vector<2xi64> to vector<8xi16>
// CHECK: %[[S:.*]] = llvm.add %[[B16]], %[[A16]] : vector<8xi16>
// CHECK: %[[S64:.*]] = llvm.bitcast %[[S]] : vector<8xi16> to vector<2xi64>
// CHECK: %[[R:.*]] = llvm.bitcast %[[S64]] : vector<2xi64> to vector<8xi16>
// CHECK: return %[[R]]
func.func @generic(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %0 = "hydride_x86.mm_add_epi16"(%a, %b) : (vector<8xi16>, vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// -----

// A widening and an interleave: one snippet per op, each inlined where it is.
// CHECK-LABEL: func.func @widen_interleave
// CHECK: llvm.zext %{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 16, 48, 17, 49, 18, 50, 19, 51, 20, 52, 21, 53, 22, 54, 23, 55] : vector<32xi8>
func.func @widen_interleave(%a: vector<16xi8>) -> vector<32xi8> {
  %0 = "hydride_x86.mm256_cvtepu8_epi16"(%a) : (vector<16xi8>) -> vector<16xi16>
  %1 = vector.bitcast %0 : vector<16xi16> to vector<32xi8>
  %2 = "hydride_x86.mm256_unpacklo_epi8"(%1, %1) : (vector<32xi8>, vector<32xi8>) -> vector<32xi8>
  return %2 : vector<32xi8>
}

// -----

// Clang's IR for a shuffle by an immediate depends on the immediate: the
// op becomes the shufflevector whose mask its semantics give for its
// immediate (27 = 0b00011011 reverses the dwords), proved by Z3 first; a
// mask form selects on the mask.
// CHECK-LABEL: func.func @immediate_shuffle
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<4xi32>
// CHECK: llvm.shufflevector %{{.*}}, %[[Z]] [3, 2, 1, 0] : vector<4xi32>
// CHECK: %[[S:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12] : vector<16xi32>
// CHECK: llvm.select %arg2, %[[S]], %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK-NOT: hydride_x86
func.func @immediate_shuffle(%a: vector<4xi32>, %b: vector<16xi32>, %k: vector<16xi1>) -> (vector<4xi32>, vector<16xi32>) {
  %0 = "hydride_x86.mm_shuffle_epi32"(%a) {imm8 = 27 : i32} : (vector<4xi32>) -> vector<4xi32>
  %1 = "hydride_x86.mm512_maskz_shuffle_epi32"(%k, %b) {imm8 = 27 : i32} : (vector<16xi1>, vector<16xi32>) -> vector<16xi32>
  return %0, %1 : vector<4xi32>, vector<16xi32>
}

// -----

// A rotation by an immediate is clang's unoptimized IR with the value in
// its place (a count past the element's width as written: fshl takes it
// modulo the width).
// CHECK-LABEL: func.func @immediate_rotation
// CHECK: llvm.mlir.constant(dense<35> : vector<4xi32>)
// CHECK: llvm.intr.fshl
// CHECK-NOT: hydride_x86
func.func @immediate_rotation(%a: vector<4xi32>) -> vector<4xi32> {
  %0 = "hydride_x86.mm_rol_epi32"(%a) {imm8 = 35 : i32} : (vector<4xi32>) -> vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

// A mask shift's IR is a shufflevector whose mask the count makes: clang's
// IR is recorded for each count up to the mask's width, and the last one
// (every bit shifted out) stands for every count above it.
// CHECK-LABEL: func.func @mask_shift
// CHECK: llvm.shufflevector
// CHECK-NOT: hydride_x86
// CHECK-LABEL: func.func @mask_shift_out
// CHECK-NOT: llvm.shufflevector
// CHECK: llvm.mlir.constant(0 : i16)
// CHECK-NOT: hydride_x86
func.func @mask_shift(%k: vector<16xi1>) -> vector<16xi1> {
  %0 = "hydride_x86.kshiftli_mask16"(%k) {count = 3 : i32} : (vector<16xi1>) -> vector<16xi1>
  return %0 : vector<16xi1>
}
func.func @mask_shift_out(%k: vector<16xi1>) -> vector<16xi1> {
  %0 = "hydride_x86.kshiftli_mask16"(%k) {count = 200 : i32} : (vector<16xi1>) -> vector<16xi1>
  return %0 : vector<16xi1>
}
