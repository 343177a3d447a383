// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-hydride-x86,expand-hydride-arm,expand-hydride-hvx)' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-hydride-x86,expand-hydride-arm,expand-hydride-hvx)' %s | FileCheck %s --check-prefix=NONE

// Each op of the target dialects becomes the vector/arith ops of its
// instruction's semantics: lane-wise ops, a write mask as a select, moves
// across lanes as shuffles and slices, sums per element (and across the
// vector) as multi_reduction, immediates as the numbers they are.

// NONE-NOT: hydride_

// CHECK-LABEL: func.func @mm512_mask_add_epi32(
// CHECK: arith.addi %arg2, %arg3 : vector<16xi32>
// CHECK: arith.select %arg1, %{{.*}}, %arg0 : vector<16xi1>, vector<16xi32>
func.func @mm512_mask_add_epi32(%arg0: vector<16xi32>, %arg1: vector<16xi1>, %arg2: vector<16xi32>, %arg3: vector<16xi32>) -> vector<16xi32> {
  %0 = "hydride_x86.mm512_mask_add_epi32"(%arg0, %arg1, %arg2, %arg3) : (vector<16xi32>, vector<16xi1>, vector<16xi32>, vector<16xi32>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// CHECK-LABEL: func.func @mm256_hadd_epi16(
// CHECK: vector.shuffle %arg0, %arg1 [1, 3, 5, 7, 17, 19, 21, 23, 9, 11, 13, 15, 25, 27, 29, 31]
// CHECK: vector.shuffle %arg0, %arg1 [0, 2, 4, 6, 16, 18, 20, 22, 8, 10, 12, 14, 24, 26, 28, 30]
// CHECK: arith.addi
func.func @mm256_hadd_epi16(%arg0: vector<16xi16>, %arg1: vector<16xi16>) -> vector<16xi16> {
  %0 = "hydride_x86.mm256_hadd_epi16"(%arg0, %arg1) : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// CHECK-LABEL: func.func @mm512_dpbusd_epi32(
// CHECK: arith.extui %arg1 : vector<64xi8> to vector<64xi16>
// CHECK: arith.extsi %arg2 : vector<64xi8> to vector<64xi16>
// CHECK: arith.muli
// CHECK: vector.shape_cast {{.*}} : vector<64xi32> to vector<16x4xi32>
// CHECK: vector.multi_reduction <add>, {{.*}}, %arg0 [1] : vector<16x4xi32> to vector<16xi32>
func.func @mm512_dpbusd_epi32(%arg0: vector<16xi32>, %arg1: vector<64xi8>, %arg2: vector<64xi8>) -> vector<16xi32> {
  %0 = "hydride_x86.mm512_dpbusd_epi32"(%arg0, %arg1, %arg2) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// CHECK-LABEL: func.func @mm256_mulhrs_epi16(
// CHECK: arith.muli {{.*}} : vector<16xi64>
// CHECK: arith.constant dense<14> : vector<16xi64>
// CHECK: arith.shrui
// CHECK: arith.addi
// CHECK: arith.shrui
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi16>
func.func @mm256_mulhrs_epi16(%arg0: vector<16xi16>, %arg1: vector<16xi16>) -> vector<16xi16> {
  %0 = "hydride_x86.mm256_mulhrs_epi16"(%arg0, %arg1) : (vector<16xi16>, vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// CHECK-LABEL: func.func @mm256_srli_epi16(
// CHECK: arith.constant dense<1> : vector<16xi16>
// CHECK: arith.shrui %arg0
func.func @mm256_srli_epi16(%arg0: vector<16xi16>) -> vector<16xi16> {
  %0 = "hydride_x86.mm256_srli_epi16"(%arg0) { imm8 = 1 : i32 } : (vector<16xi16>) -> vector<16xi16>
  return %0 : vector<16xi16>
}

// CHECK-LABEL: func.func @mm512_shuffle_epi32(
// CHECK: vector.shuffle %arg0, %arg0 [1, 0, 0, 0, 5, 4, 4, 4, 9, 8, 8, 8, 13, 12, 12, 12]
func.func @mm512_shuffle_epi32(%arg0: vector<16xi32>) -> vector<16xi32> {
  %0 = "hydride_x86.mm512_shuffle_epi32"(%arg0) { imm8 = 1 : i32 } : (vector<16xi32>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// CHECK-LABEL: func.func @vaddvq_u8(
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x16xi8> to vector<1xi8>
// CHECK: vector.extract {{.*}}[0] : i8 from vector<1xi8>
func.func @vaddvq_u8(%arg0: vector<16xi8>) -> i8 {
  %0 = "hydride_arm.vaddvq_u8"(%arg0) : (vector<16xi8>) -> i8
  return %0 : i8
}

// CHECK-LABEL: func.func @vpaddq_s16(
// CHECK: vector.shuffle %arg0, %arg1 [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: vector.shuffle %arg0, %arg1 [1, 3, 5, 7, 9, 11, 13, 15]
// CHECK: arith.addi
func.func @vpaddq_s16(%arg0: vector<8xi16>, %arg1: vector<8xi16>) -> vector<8xi16> {
  %0 = "hydride_arm.vpaddq_s16"(%arg0, %arg1) : (vector<8xi16>, vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// CHECK-LABEL: func.func @vqaddq_s8(
// CHECK: arith.extsi %arg0 : vector<16xi8> to vector<16xi9>
// CHECK: arith.addi {{.*}} : vector<16xi9>
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.trunci {{.*}} : vector<16xi9> to vector<16xi8>
func.func @vqaddq_s8(%arg0: vector<16xi8>, %arg1: vector<16xi8>) -> vector<16xi8> {
  %0 = "hydride_arm.vqaddq_s8"(%arg0, %arg1) : (vector<16xi8>, vector<16xi8>) -> vector<16xi8>
  return %0 : vector<16xi8>
}

// CHECK-LABEL: func.func @vmull_high_u8(
// CHECK: vector.extract_strided_slice %arg0 {offsets = [8], sizes = [8], strides = [1]}
// CHECK: arith.muli {{.*}} : vector<8xi16>
func.func @vmull_high_u8(%arg0: vector<16xi8>, %arg1: vector<16xi8>) -> vector<8xi16> {
  %0 = "hydride_arm.vmull_high_u8"(%arg0, %arg1) : (vector<16xi8>, vector<16xi8>) -> vector<8xi16>
  return %0 : vector<8xi16>
}

// CHECK-LABEL: func.func @v6_vrmpybusv_acc(
// CHECK: vector.multi_reduction <add>, {{.*}}, %arg0 [1] : vector<32x4xi32> to vector<32xi32>
func.func @v6_vrmpybusv_acc(%arg0: vector<32xi32>, %arg1: vector<128xi8>, %arg2: vector<128xi8>) -> vector<32xi32> {
  %0 = "hydride_hvx.v6_vrmpybusv_acc"(%arg0, %arg1, %arg2) : (vector<32xi32>, vector<128xi8>, vector<128xi8>) -> vector<32xi32>
  return %0 : vector<32xi32>
}

// CHECK-LABEL: func.func @v6_vavgub(
// CHECK: arith.addi {{.*}} : vector<128xi9>
// CHECK: arith.shrui
func.func @v6_vavgub(%arg0: vector<128xi8>, %arg1: vector<128xi8>) -> vector<128xi8> {
  %0 = "hydride_hvx.v6_vavgub"(%arg0, %arg1) : (vector<128xi8>, vector<128xi8>) -> vector<128xi8>
  return %0 : vector<128xi8>
}

// CHECK-LABEL: func.func @v6_vshuffeb(
// CHECK: vector.shuffle %arg1, %arg0 [0, 128, 2, 130, 4, 132
func.func @v6_vshuffeb(%arg0: vector<128xi8>, %arg1: vector<128xi8>) -> vector<128xi8> {
  %0 = "hydride_hvx.v6_vshuffeb"(%arg0, %arg1) : (vector<128xi8>, vector<128xi8>) -> vector<128xi8>
  return %0 : vector<128xi8>
}
