// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-even-odd{target=x86-avx2}))' %s | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-even-odd{target=x86-avx512}))' %s | FileCheck %s --check-prefix=AVX512
// hydride-even-odd alone, on operands loaded from memory and a product
// written weights first: at x86-avx2 (no VNNI) the 4-way u8 x s8 dot
// product becomes two 2-way ones over the even and odd bytes in 16-bit
// lanes (a mask and shifts extend them in place); at x86-avx512 the target
// has an instruction for the whole, and the dataflow is left as it is.

// AVX2-LABEL: func.func @dot4_from_memory
// AVX2: vector.bitcast {{.*}} : vector<32xi8> to vector<16xi16>
// AVX2: arith.andi {{.*}} : vector<16xi16>
// AVX2: arith.shrui {{.*}} : vector<16xi16>
// AVX2: arith.shrsi {{.*}} : vector<16xi16>
// AVX2: vector.multi_reduction <add>, {{.*}} [1] : vector<8x2xi32> to vector<8xi32>
// AVX2: vector.multi_reduction <add>, {{.*}} [1] : vector<8x2xi32> to vector<8xi32>
// AVX2-NOT: vector<8x4xi32>
// AVX512-LABEL: func.func @dot4_from_memory
// AVX512-NOT: vector.bitcast
// AVX512: vector.multi_reduction <add>, {{.*}} [1] : vector<8x4xi32> to vector<8xi32>
func.func @dot4_from_memory(%m: memref<?xi8>, %w: memref<?xi8>, %i: index, %c: vector<8xi32>) -> vector<8xi32> {
  %a = vector.load %m[%i] : memref<?xi8>, vector<32xi8>
  %b = vector.load %w[%i] : memref<?xi8>, vector<32xi8>
  %y = arith.extsi %b : vector<32xi8> to vector<32xi32>
  %x = arith.extui %a : vector<32xi8> to vector<32xi32>
  %p = arith.muli %y, %x : vector<32xi32>
  %g = vector.shape_cast %p : vector<32xi32> to vector<8x4xi32>
  %r = vector.multi_reduction <add>, %g, %c [1] : vector<8x4xi32> to vector<8xi32>
  return %r : vector<8xi32>
}
