// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-contract-elementwise))' %s | FileCheck %s
// hydride-contract-elementwise alone: a contraction whose operand maps are
// the identity becomes the product, flattened, and a multi_reduction that
// keeps the accumulator's dimensions. A contraction of another shape (a
// matrix product) is left for hydride-split-contract and synthesis.

// CHECK-LABEL: func.func @row_dot
// CHECK-NOT: vector.contract
// CHECK: arith.muli {{.*}} : vector<32xi32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<4x8xi32> to vector<4xi32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_dot(%a: vector<4x8xi32>, %b: vector<4x8xi32>, %acc: vector<4xi32>) -> vector<4xi32> {
  %r = vector.contract {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x8xi32>, vector<4x8xi32> into vector<4xi32>
  return %r : vector<4xi32>
}

// CHECK-LABEL: func.func @matrix_product
// CHECK: vector.contract
// CHECK-NOT: vector.multi_reduction
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @matrix_product(%x: vector<2x8xi32>, %w: vector<8x2xi32>, %acc: vector<2x2xi32>) -> vector<2x2xi32> {
  %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %w, %acc : vector<2x8xi32>, vector<8x2xi32> into vector<2x2xi32>
  return %r : vector<2x2xi32>
}
