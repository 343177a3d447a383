// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=znver4 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ZEN4
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 cpu=sapphirerapids remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=AVX2
// A maximum over two rows of three 16-bit taps, priced on the CPU: the
// columns' form saves two loads and pays one shuffle for the inner column.
// With AVX-512 the shuffle is one two-source permute (llvm-mca on Zen 4:
// 2.5 cycles against LLVM's 3.0; Skylake-AVX512 3.0 against 3.5), so the
// columns are taken; with AVX2 only, a 256-bit shuffle across the two
// 128-bit halves costs two shuffle-port instructions, dearer than the
// loads it saves on Sapphire Rapids, so the taps are left as written.
// ZEN4: remark: hydride-column-extrema: maxsi over 2 rows of 3 taps taken column by column: 4 loads instead of 6 (proved equal) ({{[0-9.]+}} cycles column by column, {{[0-9.]+}} as it is, on cpu znver4)
// ZEN4-LABEL: func.func @max2x3_i16
// ZEN4-COUNT-4: vector.load
// ZEN4-NOT: vector.load
// ZEN4: vector.shuffle
// AVX2: remark: hydride-column-extrema: extremum not taken column by column: {{[0-9.]+}} cycles column by column, {{[0-9.]+}} cycles as it is, on cpu sapphirerapids
// AVX2-LABEL: func.func @max2x3_i16
// AVX2-COUNT-6: vector.load
// AVX2-NOT: vector.shuffle
func.func @max2x3_i16(%m: memref<?xi16>, %i: index, %unused: index) -> vector<16xi16> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i1 = arith.addi %i, %c1 : index
  %i2 = arith.addi %i, %c2 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c66 = arith.constant 66 : index
  %j = arith.addi %i, %c64 : index
  %j1 = arith.addi %i, %c65 : index
  %j2 = arith.addi %i, %c66 : index
  %a0 = vector.load %m[%i] : memref<?xi16>, vector<16xi16>
  %a1 = vector.load %m[%i1] : memref<?xi16>, vector<16xi16>
  %a2 = vector.load %m[%i2] : memref<?xi16>, vector<16xi16>
  %b0 = vector.load %m[%j] : memref<?xi16>, vector<16xi16>
  %b1 = vector.load %m[%j1] : memref<?xi16>, vector<16xi16>
  %b2 = vector.load %m[%j2] : memref<?xi16>, vector<16xi16>
  %x0 = arith.maxsi %a0, %a1 : vector<16xi16>
  %x1 = arith.maxsi %x0, %a2 : vector<16xi16>
  %x2 = arith.maxsi %x1, %b0 : vector<16xi16>
  %x3 = arith.maxsi %x2, %b1 : vector<16xi16>
  %x4 = arith.maxsi %x3, %b2 : vector<16xi16>
  return %x4 : vector<16xi16>
}
