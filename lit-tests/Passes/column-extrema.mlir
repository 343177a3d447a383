// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-column-extrema{target=x86-avx512 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-column-extrema{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-column-extrema{target=hexagon-hvx128 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=HVX
// hydride-column-extrema alone: the minimum over two rows of four
// consecutive taps, combined tap after tap, loads each row's first and last
// taps and shuffles the two inner columns out of them. On HVX the shuffles
// cost more than the loads they save below five taps. With AVX2 only, the
// byte shuffles across the 256-bit register's halves cost more than the
// loads too, on the target's default CPU (x86-64-v3: 7.00 cycles against
// 4.00 by the model; llvm-mca of the whole function 7.3 against 6.3).
// AVX2: remark: hydride-column-extrema: extremum not taken column by column: {{[0-9.]+}} cycles column by column, {{[0-9.]+}} cycles as it is, on cpu x86-64-v3
// AVX2-LABEL: func.func @min_2x4_taps
// AVX2-COUNT-8: vector.load
// AVX2-NOT: vector.shuffle

// CHECK: remark: hydride-column-extrema: minui over 2 rows of 4 taps taken column by column: 4 loads instead of 8 (proved equal)
// CHECK-LABEL: func.func @min_2x4_taps
// CHECK-COUNT-4: vector.load
// CHECK-NOT: vector.load
// CHECK: vector.shuffle {{.*}} [1, 2, 3, {{.*}}, 31, 61]
// CHECK: vector.shuffle {{.*}} [2, 3, 4, {{.*}}, 31, 61, 62]
// HVX: remark: hydride-column-extrema: extremum not taken column by column: 4 taps wide, and at hexagon-hvx128 the shuffles pay for the saved loads from 5 taps wide
// HVX-COUNT-8: vector.load
// HVX-NOT: vector.shuffle
func.func @min_2x4_taps(%m: memref<?xi8>, %i: index, %o: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %i0 = arith.addi %i, %c0 : index
  %v0 = vector.load %m[%i0] : memref<?xi8>, vector<32xi8>
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i, %c1 : index
  %v1 = vector.load %m[%i1] : memref<?xi8>, vector<32xi8>
  %c2 = arith.constant 2 : index
  %i2 = arith.addi %i, %c2 : index
  %v2 = vector.load %m[%i2] : memref<?xi8>, vector<32xi8>
  %c3 = arith.constant 3 : index
  %i3 = arith.addi %i, %c3 : index
  %v3 = vector.load %m[%i3] : memref<?xi8>, vector<32xi8>
  %c4 = arith.constant 640 : index
  %i4 = arith.addi %i, %c4 : index
  %v4 = vector.load %m[%i4] : memref<?xi8>, vector<32xi8>
  %c5 = arith.constant 641 : index
  %i5 = arith.addi %i, %c5 : index
  %v5 = vector.load %m[%i5] : memref<?xi8>, vector<32xi8>
  %c6 = arith.constant 642 : index
  %i6 = arith.addi %i, %c6 : index
  %v6 = vector.load %m[%i6] : memref<?xi8>, vector<32xi8>
  %c7 = arith.constant 643 : index
  %i7 = arith.addi %i, %c7 : index
  %v7 = vector.load %m[%i7] : memref<?xi8>, vector<32xi8>
  %r0 = arith.minui %v0, %v1 : vector<32xi8>
  %r1 = arith.minui %r0, %v2 : vector<32xi8>
  %r2 = arith.minui %r1, %v3 : vector<32xi8>
  %r3 = arith.minui %r2, %v4 : vector<32xi8>
  %r4 = arith.minui %r3, %v5 : vector<32xi8>
  %r5 = arith.minui %r4, %v6 : vector<32xi8>
  %r6 = arith.minui %r5, %v7 : vector<32xi8>
  vector.store %r6, %o[%i] : memref<?xi8>, vector<32xi8>
  return
}
