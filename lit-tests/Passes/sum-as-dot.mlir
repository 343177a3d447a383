// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-sum-as-dot{target=x86-avx512 remarks=true}))' %s 2>&1 | FileCheck %s
// hydride-sum-as-dot alone: a sum of groups of four loaded bytes into an
// accumulator is written as their dot product with ones (unsigned bytes
// times signed ones), proved equal first. A sum of groups of elements
// that are not extended is no dot product and stays.

// CHECK: remark: hydride-sum-as-dot: a sum of groups of extended elements of a vector<32xi8> written as their dot product with ones (proved equal)
// CHECK-LABEL: func.func @sum4_of_loaded
// CHECK: arith.constant dense<1> : vector<32xi8>
// CHECK: arith.extsi {{.*}} : vector<32xi8> to vector<32xi32>
// CHECK: arith.muli
// CHECK-LABEL: func.func @sum_of_words
// CHECK-NOT: arith.muli
// CHECK: vector.multi_reduction
func.func @sum4_of_loaded(%m: memref<?xi8>, %i: index, %acc: vector<8xi32>) -> vector<8xi32> {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %x = arith.extui %a : vector<32xi8> to vector<32xi32>
  %g = vector.shape_cast %x : vector<32xi32> to vector<8x4xi32>
  %s = vector.multi_reduction <add>, %g, %acc [1] : vector<8x4xi32> to vector<8xi32>
  return %s : vector<8xi32>
}

func.func @sum_of_words(%a: vector<32xi32>, %acc: vector<8xi32>) -> vector<8xi32> {
  %g = vector.shape_cast %a : vector<32xi32> to vector<8x4xi32>
  %s = vector.multi_reduction <add>, %g, %acc [1] : vector<8x4xi32> to vector<8xi32>
  return %s : vector<8xi32>
}
