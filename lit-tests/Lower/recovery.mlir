// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-hydride-arm,lower-to-autollvm{target=aarch64-neon-dotprod-i8mm cache-dir=%t.cache})' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-hydride-x86,lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=X86

// Recovery: an instruction expanded into vector/arith and lowered again
// comes back as its class op (scripts/recovery does this for every
// instruction of a target's grammar). The saturation is written as a
// clamp, min then max, as code writes one.

// CHECK-LABEL: func.func @saturating_add
// CHECK-NEXT: autollvm.add_sat_s %arg0, %arg1 : vector<16xi8>
// CHECK-NEXT: return
func.func @saturating_add(%arg0: vector<16xi8>, %arg1: vector<16xi8>) -> vector<16xi8> {
  %0 = "hydride_arm.vqaddq_s8"(%arg0, %arg1) : (vector<16xi8>, vector<16xi8>) -> vector<16xi8>
  return %0 : vector<16xi8>
}

// CHECK-LABEL: func.func @widening_product_of_high_halves
// CHECK-NEXT: autollvm.mul_widen %arg0, %arg1
// CHECK-NEXT: return
func.func @widening_product_of_high_halves(%arg0: vector<16xi8>, %arg1: vector<16xi8>) -> vector<8xi16> {
  %0 = "hydride_arm.vmull_high_u8"(%arg0, %arg1) : (vector<16xi8>, vector<16xi8>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// X86-LABEL: func.func @dot_accumulate
// X86-NEXT: autollvm.dot_acc_su_widen %arg1, %arg2, %arg0
// X86-NEXT: return
func.func @dot_accumulate(%arg0: vector<16xi32>, %arg1: vector<64xi8>, %arg2: vector<64xi8>) -> vector<16xi32> {
  %0 = "hydride_x86.mm512_dpbusd_epi32"(%arg0, %arg1, %arg2) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// X86-LABEL: func.func @saturating_pack
// X86-NEXT: autollvm.
// X86-NOT: arith.
// X86: return
func.func @saturating_pack(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<64xi8> {
  %0 = "hydride_x86.mm512_packs_epi16"(%arg0, %arg1) : (vector<32xi16>, vector<32xi16>) -> vector<64xi8>
  return %0 : vector<64xi8>
}
