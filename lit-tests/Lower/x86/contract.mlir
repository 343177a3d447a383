// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=AVX512
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=AVX2
// A 4-way u8 x i8 dot product into 16 i32 lanes as linalg vectorization
// writes it: one elementwise `vector.contract`. It reaches the search as the
// product and reduction it is by definition (the same form as hand-written
// code; passes/tests/contract_elementwise.rs proves the two equal), so at
// AVX-512 it is one vpdpbusd, and at AVX2, where no instruction computes it,
// the proved even/odd identity makes it two 2-way dot products of 16-bit
// lanes (which LLVM lowers to vpmaddwd), as for hand-written code.
#in = affine_map<(m, k) -> (m, k)>
#acc = affine_map<(m, k) -> (m)>

// AVX512-LABEL: func.func @dot
// AVX512: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
// AVX512-NOT: vector.contract
// AVX2-LABEL: func.func @dot
// AVX2-NOT: vector.contract
// AVX2: vector.bitcast %arg0 : vector<64xi8> to vector<32xi16>
// AVX2: arith.shrui
// AVX2: vector.multi_reduction <add>, %{{.*}}, %arg2 [1] : vector<16x2xi32> to vector<16xi32>
// AVX2: vector.multi_reduction <add>, {{.*}} [1] : vector<16x2xi32> to vector<16xi32>
// AVX2-NOT: vector<16x4xi
func.func @dot(%a: vector<64xi8>, %b: vector<64xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %lhs = vector.shape_cast %a : vector<64xi8> to vector<16x4xi8>
  %rhs = vector.shape_cast %b : vector<64xi8> to vector<16x4xi8>
  %l = arith.extui %lhs : vector<16x4xi8> to vector<16x4xi32>
  %r = arith.extsi %rhs : vector<16x4xi8> to vector<16x4xi32>
  %0 = vector.contract {indexing_maps = [#in, #in, #acc], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %c : vector<16x4xi32>, vector<16x4xi32> into vector<16xi32>
  return %0 : vector<16xi32>
}

// A contraction that is not elementwise (a 2x2 tile of a matrix product)
// keeps its form.
// AVX512-LABEL: func.func @tile
// AVX2-LABEL: func.func @tile
// AVX2: vector.contract
func.func @tile(%l: vector<2x8xi32>, %r: vector<2x8xi32>, %c: vector<2x2xi32>) -> vector<2x2xi32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %r, %c : vector<2x8xi32>, vector<2x8xi32> into vector<2x2xi32>
  return %0 : vector<2x2xi32>
}
