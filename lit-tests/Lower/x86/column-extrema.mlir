// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=skylake-avx512 cache-dir=%t.cache remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=SKX
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=hexagon-hvx128 cache-dir=%t.cache remarks=true}))' %s 2>%t.hvx-remarks | FileCheck %s --check-prefix=HVX
// RUN: FileCheck %s --check-prefix=HVX-REMARK < %t.hvx-remarks
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ARM
// A maximum (or minimum) over rows of consecutive taps takes each row's
// first and last taps, combines them over the rows, and shuffles the inner
// columns out of those two: 2 loads per row instead of one per tap. On
// Hexagon (one `valign` per inner column) from 5 taps wide: narrower, the
// shuffles cost more than the loads they save.
// HVX-REMARK: remark: hydride-column-extrema: extremum not taken column by column: 3 taps wide, and at hexagon-hvx128 the shuffles pay for the saved loads from 5 taps wide
// HVX-REMARK: remark: hydride-column-extrema: maxui over 2 rows of 5 taps taken column by column: 4 loads instead of 10 (proved equal)

// Remarks come first (the module is printed after the pass).
// CHECK: remark: hydride-column-extrema: maxui over 3 rows of 3 taps taken column by column: 6 loads instead of 9 (proved equal)
// CHECK: remark: hydride-column-extrema: extremum not taken column by column: 3.00 cycles column by column, 3.00 cycles as it is, on cpu znver4
// CHECK: remark: hydride-column-extrema: extremum not taken column by column: its rows of consecutive taps differ in width ([1, 3, 1])

// CHECK-LABEL: func.func @max3x3
// CHECK-COUNT-6: vector.load
// CHECK-NOT: vector.load
// CHECK: arith.maxui
// CHECK: %[[FIRST:.*]] = arith.maxui %{{.*}}, %{{.*}} : vector<16xi8>
// CHECK: arith.maxui
// CHECK: %[[LAST:.*]] = arith.maxui %{{.*}}, %{{.*}} : vector<16xi8>
// CHECK: %[[MID:.*]] = vector.shuffle %[[FIRST]], %[[LAST]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 30]
// CHECK: %[[M:.*]] = arith.maxui %[[FIRST]], %[[MID]]
// CHECK: %[[R:.*]] = arith.maxui %[[M]], %[[LAST]]
// CHECK: return %[[R]]
// ARM-LABEL: func.func @max3x3
// ARM-COUNT-6: vector.load
// ARM: vector.shuffle
// HVX-LABEL: func.func @max3x3
// HVX-COUNT-9: vector.load
// HVX-NOT: vector.shuffle
func.func @max3x3(%m: memref<?xi8>, %i: index) -> vector<16xi8> {
  %c0 = arith.constant -101 : index
  %c1 = arith.constant -100 : index
  %c2 = arith.constant -99 : index
  %c3 = arith.constant -1 : index
  %c5 = arith.constant 1 : index
  %c6 = arith.constant 99 : index
  %c7 = arith.constant 100 : index
  %c8 = arith.constant 101 : index
  %i0 = arith.addi %i, %c0 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %i3 = arith.addi %i, %c3 : index
  %i5 = arith.addi %c5, %i : index
  %i6 = arith.addi %i, %c6 : index
  %i7 = arith.addi %i, %c7 : index
  %i8 = arith.addi %i, %c8 : index
  %v0 = vector.load %m[%i0] : memref<?xi8>, vector<16xi8>
  %v1 = vector.load %m[%i1] : memref<?xi8>, vector<16xi8>
  %v2 = vector.load %m[%i2] : memref<?xi8>, vector<16xi8>
  %v3 = vector.load %m[%i3] : memref<?xi8>, vector<16xi8>
  %v4 = vector.load %m[%i] : memref<?xi8>, vector<16xi8>
  %v5 = vector.load %m[%i5] : memref<?xi8>, vector<16xi8>
  %v6 = vector.load %m[%i6] : memref<?xi8>, vector<16xi8>
  %v7 = vector.load %m[%i7] : memref<?xi8>, vector<16xi8>
  %v8 = vector.load %m[%i8] : memref<?xi8>, vector<16xi8>
  %a = arith.maxui %v0, %v4 : vector<16xi8>
  %b = arith.maxui %v8, %v1 : vector<16xi8>
  %c = arith.maxui %a, %b : vector<16xi8>
  %d = arith.maxui %v2, %v3 : vector<16xi8>
  %e = arith.maxui %v5, %v6 : vector<16xi8>
  %f = arith.maxui %d, %e : vector<16xi8>
  %g = arith.maxui %c, %f : vector<16xi8>
  %h = arith.maxui %g, %v7 : vector<16xi8>
  return %h : vector<16xi8>
}

// Signed minimum of i16 over two rows of four taps: two inner columns,
// whose two shuffles cost Zen 4 as much as the four loads they save (left
// as written), and Skylake-AVX512 less (taken).
// CHECK-LABEL: func.func @min2x4
// CHECK-NOT: vector.shuffle
// CHECK: return
// SKX: remark: hydride-column-extrema: minsi over 2 rows of 4 taps taken column by column: 4 loads instead of 8 (proved equal) ({{[0-9.]+}} cycles column by column, {{[0-9.]+}} as it is, on cpu skylake-avx512)
// SKX-LABEL: func.func @min2x4
// SKX-COUNT-2: vector.shuffle %{{.*}}, %{{.*}} [{{.*}}] : vector<8xi16>, vector<8xi16>
// SKX-NOT: vector.shuffle
// SKX: return
func.func @min2x4(%m: memref<?xi16>, %i: index) -> vector<8xi16> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %i3 = arith.addi %i, %c3 : index
  %i10 = arith.addi %i, %c10 : index
  %i11 = arith.addi %i, %c11 : index
  %i12 = arith.addi %i, %c12 : index
  %i13 = arith.addi %i, %c13 : index
  %v0 = vector.load %m[%i] : memref<?xi16>, vector<8xi16>
  %v1 = vector.load %m[%i1] : memref<?xi16>, vector<8xi16>
  %v2 = vector.load %m[%i2] : memref<?xi16>, vector<8xi16>
  %v3 = vector.load %m[%i3] : memref<?xi16>, vector<8xi16>
  %v10 = vector.load %m[%i10] : memref<?xi16>, vector<8xi16>
  %v11 = vector.load %m[%i11] : memref<?xi16>, vector<8xi16>
  %v12 = vector.load %m[%i12] : memref<?xi16>, vector<8xi16>
  %v13 = vector.load %m[%i13] : memref<?xi16>, vector<8xi16>
  %a = arith.minsi %v0, %v1 : vector<8xi16>
  %b = arith.minsi %a, %v2 : vector<8xi16>
  %c = arith.minsi %b, %v3 : vector<8xi16>
  %d = arith.minsi %c, %v10 : vector<8xi16>
  %e = arith.minsi %d, %v11 : vector<8xi16>
  %f = arith.minsi %e, %v12 : vector<8xi16>
  %g = arith.minsi %f, %v13 : vector<8xi16>
  return %g : vector<8xi16>
}

// Rows of different widths (a cross, not a rectangle): left alone, with a remark.
// CHECK-LABEL: func.func @cross
// CHECK-COUNT-5: vector.load
// CHECK-NOT: vector.shuffle
// CHECK: return
func.func @cross(%m: memref<?xi8>, %i: index) -> vector<16xi8> {
  %up = arith.constant -100 : index
  %l = arith.constant -1 : index
  %r = arith.constant 1 : index
  %dn = arith.constant 100 : index
  %iu = arith.addi %i, %up : index
  %il = arith.addi %i, %l : index
  %ir = arith.addi %i, %r : index
  %id = arith.addi %i, %dn : index
  %vu = vector.load %m[%iu] : memref<?xi8>, vector<16xi8>
  %vl = vector.load %m[%il] : memref<?xi8>, vector<16xi8>
  %vc = vector.load %m[%i] : memref<?xi8>, vector<16xi8>
  %vr = vector.load %m[%ir] : memref<?xi8>, vector<16xi8>
  %vd = vector.load %m[%id] : memref<?xi8>, vector<16xi8>
  %a = arith.maxui %vu, %vl : vector<16xi8>
  %b = arith.maxui %a, %vc : vector<16xi8>
  %c = arith.maxui %b, %vr : vector<16xi8>
  %d = arith.maxui %c, %vd : vector<16xi8>
  return %d : vector<16xi8>
}

// Five taps wide: every target, Hexagon too (three inner columns, each a
// two-source shuffle: `valign` there).
// CHECK-LABEL: func.func @max2x5
// CHECK-COUNT-4: vector.load
// CHECK-NOT: vector.load
// CHECK-COUNT-3: vector.shuffle
// HVX-LABEL: func.func @max2x5
// HVX-COUNT-4: vector.load
// HVX-NOT: vector.load
// HVX-COUNT-3: vector.shuffle
func.func @max2x5(%m: memref<?xi8>, %i: index) -> vector<16xi8> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c101 = arith.constant 101 : index
  %c102 = arith.constant 102 : index
  %c103 = arith.constant 103 : index
  %c104 = arith.constant 104 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %i3 = arith.addi %i, %c3 : index
  %i4 = arith.addi %i, %c4 : index
  %i100 = arith.addi %i, %c100 : index
  %i101 = arith.addi %i, %c101 : index
  %i102 = arith.addi %i, %c102 : index
  %i103 = arith.addi %i, %c103 : index
  %i104 = arith.addi %i, %c104 : index
  %v0 = vector.load %m[%i] : memref<?xi8>, vector<16xi8>
  %v1 = vector.load %m[%i1] : memref<?xi8>, vector<16xi8>
  %v2 = vector.load %m[%i2] : memref<?xi8>, vector<16xi8>
  %v3 = vector.load %m[%i3] : memref<?xi8>, vector<16xi8>
  %v4 = vector.load %m[%i4] : memref<?xi8>, vector<16xi8>
  %v100 = vector.load %m[%i100] : memref<?xi8>, vector<16xi8>
  %v101 = vector.load %m[%i101] : memref<?xi8>, vector<16xi8>
  %v102 = vector.load %m[%i102] : memref<?xi8>, vector<16xi8>
  %v103 = vector.load %m[%i103] : memref<?xi8>, vector<16xi8>
  %v104 = vector.load %m[%i104] : memref<?xi8>, vector<16xi8>
  %x0 = arith.maxui %v0, %v1 : vector<16xi8>
  %x1 = arith.maxui %x0, %v2 : vector<16xi8>
  %x2 = arith.maxui %x1, %v3 : vector<16xi8>
  %x3 = arith.maxui %x2, %v4 : vector<16xi8>
  %x4 = arith.maxui %x3, %v100 : vector<16xi8>
  %x5 = arith.maxui %x4, %v101 : vector<16xi8>
  %x6 = arith.maxui %x5, %v102 : vector<16xi8>
  %x7 = arith.maxui %x6, %v103 : vector<16xi8>
  %x8 = arith.maxui %x7, %v104 : vector<16xi8>
  return %x8 : vector<16xi8>
}
