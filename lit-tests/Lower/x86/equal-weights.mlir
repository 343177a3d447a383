// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512}))' %s | FileCheck %s --check-prefix=FACTORED
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=aarch64-neon}))' %s | FileCheck %s --check-prefix=FACTORED
// On a CPU's model, the chain and the factored form are priced, each
// product of an extended byte by a weight that is no shift and add as the
// one unit LLVM selects (`vpmovzxbd` and `vpmaddwd`): Ice Lake's model
// runs the extensions on its one shuffle port and finds the chain cheaper;
// Zen 4's, the factored form.
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-equal-weights{target=x86-avx512 cpu=icelake-server remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ICX
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-equal-weights{target=x86-avx512 cpu=znver4 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ZEN4
// A sum of extended bytes times constants in 32-bit lanes whose weights
// repeat (a 7x7 binomial blur's 49 taps have 10 weights) is factored
// before synthesis, proved equal first: each weight's bytes are summed in
// 16-bit lanes, twice as many to a register, and multiplied once. A chain
// whose weights are all distinct has nothing to factor and stays.

// CHECK: remark: hydride-equal-weights: a sum of 6 extended bytes times constant weights (3 distinct) factored by weight, each weight's bytes summed in 16-bit lanes (proved equal)
// CHECK-LABEL: func.func @equal_weights
// CHECK-COUNT-2: arith.addi %{{.*}}, %{{.*}} : vector<16xi16>
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<16xi16>
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK-NOT: arith.muli
// CHECK: return
// ICX: remark: hydride-equal-weights: a sum of 6 extended bytes times constant weights (3 distinct) left unfactored: {{[0-9.]+}} cycles factored, {{[0-9.]+}} cycles as it is, on cpu icelake-server
// ICX-LABEL: func.func @equal_weights
// ICX-NOT: vector<16xi16>
// ICX: return
// ZEN4: remark: hydride-equal-weights: {{.*}} factored by weight, {{.*}} ({{[0-9.]+}} cycles factored, {{[0-9.]+}} as it is, on cpu znver4)
// ZEN4-LABEL: func.func @equal_weights
// ZEN4: arith.addi %{{.*}}, %{{.*}} : vector<16xi16>
// FACTORED-LABEL: func.func @equal_weights
// FACTORED: arith.extui %{{.*}} : vector<16xi16> to vector<16xi32>
// FACTORED: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// FACTORED: arith.extui %{{.*}} : vector<16xi16> to vector<16xi32>
// FACTORED: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// FACTORED-NOT: arith.muli
// FACTORED: return
func.func @equal_weights(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<16xi8>, %d: vector<16xi8>, %e: vector<16xi8>, %f: vector<16xi8>) -> vector<16xi32> {
  %w3 = arith.constant dense<3> : vector<16xi32>
  %w300 = arith.constant dense<300> : vector<16xi32>
  %xa = arith.extui %a : vector<16xi8> to vector<16xi32>
  %xb = arith.extui %b : vector<16xi8> to vector<16xi32>
  %xc = arith.extui %c : vector<16xi8> to vector<16xi32>
  %xd = arith.extui %d : vector<16xi8> to vector<16xi32>
  %xe = arith.extui %e : vector<16xi8> to vector<16xi32>
  %xf = arith.extui %f : vector<16xi8> to vector<16xi32>
  %pa = arith.muli %xa, %w300 : vector<16xi32>
  %pb = arith.muli %xb, %w3 : vector<16xi32>
  %pc = arith.muli %xc, %w300 : vector<16xi32>
  %pd = arith.muli %xd, %w3 : vector<16xi32>
  %pe = arith.muli %xe, %w300 : vector<16xi32>
  %s1 = arith.addi %pa, %pb : vector<16xi32>
  %s2 = arith.addi %s1, %pc : vector<16xi32>
  %s3 = arith.addi %s2, %pd : vector<16xi32>
  %s4 = arith.addi %s3, %pe : vector<16xi32>
  %s5 = arith.addi %s4, %xf : vector<16xi32>
  return %s5 : vector<16xi32>
}

// Distinct weights are not factored; the chain's products are then paired
// by the synthesis (16-bit multiply-adds of the interleaved bytes), which
// the target's default CPU prices cheaper than LLVM's chain (llvm-mca:
// 8.0 cycles against 9.0 on x86-64-v3, 9.0 against 11.5 on Zen 3, 4.0
// against 6.0 on Alder Lake).
// CHECK-NOT: remark: hydride-equal-weights: a sum of
// CHECK-LABEL: func.func @distinct_weights
// CHECK: arith.constant dense<[300, 1, 300, 1,
// CHECK: autollvm.dot_s
// CHECK-NOT: arith.muli
// CHECK: return
// FACTORED-LABEL: func.func @distinct_weights
// FACTORED-NOT: xi16>
// FACTORED: return
func.func @distinct_weights(%a: vector<16xi8>, %b: vector<16xi8>, %c: vector<16xi8>) -> vector<16xi32> {
  %w3 = arith.constant dense<3> : vector<16xi32>
  %w300 = arith.constant dense<300> : vector<16xi32>
  %xa = arith.extui %a : vector<16xi8> to vector<16xi32>
  %xb = arith.extui %b : vector<16xi8> to vector<16xi32>
  %xc = arith.extui %c : vector<16xi8> to vector<16xi32>
  %pa = arith.muli %xa, %w300 : vector<16xi32>
  %pb = arith.muli %xb, %w3 : vector<16xi32>
  %s1 = arith.addi %pa, %pb : vector<16xi32>
  %s2 = arith.addi %s1, %xc : vector<16xi32>
  return %s2 : vector<16xi32>
}
