// RUN: rm -rf %t.cache %t.second-cache %t.rules
// RUN: env HYDRIDE_RULES=%t.rules %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: env HYDRIDE_RULES=%t.rules %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true cache-dir=%t.second-cache}))' %s 2>%t.second | FileCheck %s
// RUN: FileCheck %s --check-prefix=BY-RULE < %t.second
// Three-step programs: no one or two instructions compute a sum of pairs of
// byte products in 32 bits at x86-avx2, but two widenings to 16 bits and
// `vpmaddwd` over them do (the third step reads two one-step values,
// passes/src/synth/compose.rs). Run against LLVM's path in
// Run/x86/three-steps.test. Each program found is recorded as a rule
// (HYDRIDE_RULES), which a second compilation with a fresh memo applies.
// BY-RULE-COUNT-3: remark: {{.*}}1 rewritten (1 by a rule, not from the memo)

// CHECK-LABEL: func.func @dot_u8_pairs
// CHECK: %[[A:.*]] = autollvm.convert_sat_u %arg0{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: %[[B:.*]] = autollvm.convert_sat_u %arg1{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: autollvm.dot_s %[[A]], %[[B]] {{.*}} to vector<8xi32>
// CHECK-NOT: arith.muli
// REMARK: remark: {{.*}}1 rewritten
func.func @dot_u8_pairs(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<8xi32> {
  %x = arith.extui %a : vector<16xi8> to vector<16xi32>
  %y = arith.extui %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %x, %y : vector<16xi32>
  %r = vector.shape_cast %p : vector<16xi32> to vector<8x2xi32>
  %zero = arith.constant dense<0> : vector<8xi32>
  %s = vector.multi_reduction <add>, %r, %zero [1] : vector<8x2xi32> to vector<8xi32>
  return %s : vector<8xi32>
}

// Unsigned by signed bytes: the sums exceed 16 bits, so not `vpmaddubsw`.
// CHECK-LABEL: func.func @dot_u8_s8_pairs
// CHECK-DAG: autollvm.convert_sat_u %arg0
// CHECK-DAG: autollvm.{{.*}} %arg1{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: autollvm.dot_s {{.*}} to vector<8xi32>
// CHECK-NOT: arith.muli
func.func @dot_u8_s8_pairs(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<8xi32> {
  %x = arith.extui %a : vector<16xi8> to vector<16xi32>
  %y = arith.extsi %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %x, %y : vector<16xi32>
  %r = vector.shape_cast %p : vector<16xi32> to vector<8x2xi32>
  %zero = arith.constant dense<0> : vector<8xi32>
  %s = vector.multi_reduction <add>, %r, %zero [1] : vector<8x2xi32> to vector<8xi32>
  return %s : vector<8xi32>
}

// CHECK-LABEL: func.func @dot_s8_pairs
// CHECK: autollvm.dot_s {{.*}} to vector<8xi32>
// CHECK-NOT: arith.muli
func.func @dot_s8_pairs(%a: vector<16xi8>, %b: vector<16xi8>) -> vector<8xi32> {
  %x = arith.extsi %a : vector<16xi8> to vector<16xi32>
  %y = arith.extsi %b : vector<16xi8> to vector<16xi32>
  %p = arith.muli %x, %y : vector<16xi32>
  %r = vector.shape_cast %p : vector<16xi32> to vector<8x2xi32>
  %zero = arith.constant dense<0> : vector<8xi32>
  %s = vector.multi_reduction <add>, %r, %zero [1] : vector<8x2xi32> to vector<8xi32>
  return %s : vector<8xi32>
}
