// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-equal-weights{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// hydride-equal-weights alone: five taps weighted 5, 9, 5, 9, 5 in 32-bit
// lanes become the sum of the three 5-weighted bytes and of the two
// 9-weighted ones in 16-bit lanes, each sum extended and multiplied once.

// CHECK: remark: hydride-equal-weights: a sum of 5 extended bytes times constant weights (2 distinct) factored by weight, each weight's bytes summed in 16-bit lanes (proved equal)
// CHECK-LABEL: func.func @five_taps
// CHECK-COUNT-2: arith.muli {{.*}} : vector<16xi32>
// CHECK-NOT: arith.muli
// CHECK: vector.store
func.func @five_taps(%m: memref<?xi8>, %i: index, %o: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %i3 = arith.addi %i, %c3 : index
  %i4 = arith.addi %i, %c4 : index
  %a0 = vector.load %m[%i] : memref<?xi8>, vector<16xi8>
  %a1 = vector.load %m[%i1] : memref<?xi8>, vector<16xi8>
  %a2 = vector.load %m[%i2] : memref<?xi8>, vector<16xi8>
  %a3 = vector.load %m[%i3] : memref<?xi8>, vector<16xi8>
  %a4 = vector.load %m[%i4] : memref<?xi8>, vector<16xi8>
  %e0 = arith.extui %a0 : vector<16xi8> to vector<16xi32>
  %e1 = arith.extui %a1 : vector<16xi8> to vector<16xi32>
  %e2 = arith.extui %a2 : vector<16xi8> to vector<16xi32>
  %e3 = arith.extui %a3 : vector<16xi8> to vector<16xi32>
  %e4 = arith.extui %a4 : vector<16xi8> to vector<16xi32>
  %w5 = arith.constant dense<5> : vector<16xi32>
  %w9 = arith.constant dense<9> : vector<16xi32>
  %p0 = arith.muli %e0, %w5 : vector<16xi32>
  %p1 = arith.muli %e1, %w9 : vector<16xi32>
  %p2 = arith.muli %e2, %w5 : vector<16xi32>
  %p3 = arith.muli %e3, %w9 : vector<16xi32>
  %p4 = arith.muli %e4, %w5 : vector<16xi32>
  %s1 = arith.addi %p0, %p1 : vector<16xi32>
  %s2 = arith.addi %s1, %p2 : vector<16xi32>
  %s3 = arith.addi %s2, %p3 : vector<16xi32>
  %s4 = arith.addi %s3, %p4 : vector<16xi32>
  vector.store %s4, %o[%i] : memref<?xi32>, vector<16xi32>
  return
}
