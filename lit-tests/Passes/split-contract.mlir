// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-split-contract{target=x86-avx2}))' %s | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-split-contract{target=x86-avx512}))' %s | FileCheck %s --check-prefix=AVX512
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-split-contract{target=aarch64-neon}))' %s | FileCheck %s --check-prefix=NEON
// hydride-split-contract alone: a 4x4 matrix-vector product over 64 bytes
// per row is split into tiles whose byte operands fit one register: 256
// bits at x86-avx2 (32 bytes: two reduction tiles per output element), 512
// at x86-avx512 (one), 128 at aarch64-neon (four). The tiles accumulate in
// order and are inserted into the accumulator.

// AVX2-COUNT-32: vector.contract {{.*}} : vector<1x32xi32>, vector<1x32xi32> into vector<1x1xi32>
// AVX2-NOT: vector.contract
// AVX512-COUNT-16: vector.contract {{.*}} : vector<1x64xi32>, vector<1x64xi32> into vector<1x1xi32>
// AVX512-NOT: vector.contract
// NEON-COUNT-64: vector.contract {{.*}} : vector<1x16xi32>, vector<1x16xi32> into vector<1x1xi32>
// NEON-NOT: vector.contract
// AVX512: vector.insert_strided_slice {{.*}} {offsets = [3, 3], strides = [1, 1]} : vector<1x1xi32> into vector<4x4xi32>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @wide_matvec(%x: vector<4x64xi8>, %w: vector<4x64xi8>, %acc: vector<4x4xi32>) -> vector<4x4xi32> {
  %xe = arith.extui %x : vector<4x64xi8> to vector<4x64xi32>
  %we = arith.extsi %w : vector<4x64xi8> to vector<4x64xi32>
  %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %xe, %we, %acc : vector<4x64xi32>, vector<4x64xi32> into vector<4x4xi32>
  return %r : vector<4x4xi32>
}
