// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=icelake-server cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ICX
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=znver4 cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ZEN4
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=sapphirerapids cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=ZEN4
// The synthesis ranks the programs it finds by cycles on the CPU's model
// (then by instructions), and the memo keeps each CPU's answer apart. A
// rotate by a constant is one instruction two ways: the rotate
// (`vprold`) or a funnel shift of the value with itself (`vpshldd`).
// Ice Lake's model runs the funnel shift on two ports and the rotate on
// one, so it takes the funnel shift; on Zen 4's and Sapphire Rapids'
// models both are one port's, and the rotate (first in the grammar) stays.

// ICX-LABEL: func.func @rotate_left_7
// ICX: autollvm.funnel_shift_ternary %arg0, %arg0
// ICX-NOT: arith.ori
// ZEN4-LABEL: func.func @rotate_left_7
// ZEN4: autollvm.funnel_shift_binary
// ZEN4-NOT: arith.ori
func.func @rotate_left_7(%a: vector<16xi32>) -> vector<16xi32> {
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c25 = arith.constant dense<25> : vector<16xi32>
  %l = arith.shli %a, %c7 : vector<16xi32>
  %r = arith.shrui %a, %c25 : vector<16xi32>
  %o = arith.ori %l, %r : vector<16xi32>
  return %o : vector<16xi32>
}
