// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true max-ops=24 cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=RULES < %S/../../../generated/x86/rules.json
// Offline rules (generated/x86/rules.json, from passes/src/synth/idioms.rs)
// applied by equality saturation: the idiom's saturating add, written with
// the operands of the add and of the clamp the other way round, is matched
// through commutativity and needs no search; so is a rounding multiply with
// its addition commuted. A window no rule covers is still searched.

// RULES: "_generated_by": "DO NOT EDIT: written by hydride-rules
// RULES: "idiom": "addi_sat_u8x32",
// RULES-NEXT: "target": "x86-avx512",
// RULES: "idiom": "addi_sat_u8x32",
// RULES-NEXT: "target": "x86-avx2",

// CHECK-LABEL: func.func @adds_commuted
// CHECK: autollvm.add_sat_u
// CHECK-NOT: arith.minui
// REMARK: rules.mlir:[[@LINE+8]]:3: remark: {{.*}}after the offline rules; 1 rewritten (1 by a rule, not from the memo), 0 left unchanged
func.func @adds_commuted(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<32xi8> {
  %max = arith.constant dense<255> : vector<32xi16>
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %s = arith.addi %y, %x : vector<32xi16>
  %c = arith.minui %max, %s : vector<32xi16>
  %r = arith.trunci %c : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}

// CHECK-LABEL: func.func @mulhrs
// CHECK: autollvm.mul_high_round_s %arg0, %arg1
// REMARK: rules.mlir:[[@LINE+10]]:3: remark: {{.*}}1 rewritten (1 by a rule, not from the memo)
func.func @mulhrs(%a: vector<16xi16>, %b: vector<16xi16>) -> vector<16xi16> {
  %x = arith.extsi %a : vector<16xi16> to vector<16xi32>
  %y = arith.extsi %b : vector<16xi16> to vector<16xi32>
  %p = arith.muli %x, %y : vector<16xi32>
  %half = arith.constant dense<16384> : vector<16xi32>
  %t = arith.addi %half, %p : vector<16xi32>
  %k = arith.constant dense<15> : vector<16xi32>
  %s = arith.shrsi %t, %k : vector<16xi32>
  %r = arith.trunci %s : vector<16xi32> to vector<16xi16>
  return %r : vector<16xi16>
}

// A maximum of unsigned bytes taken at 16 bits (no idiom): searched, found.
// CHECK-LABEL: func.func @searched
// CHECK: autollvm.{{.*}} %arg0, %arg1
// CHECK-NOT: arith.maxui
// REMARK: rules.mlir:[[@LINE+6]]:3: remark: {{.*}}1 rewritten (0 by a rule, not from the memo)
func.func @searched(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<32xi8> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %m = arith.maxui %x, %y : vector<32xi16>
  %r = arith.trunci %m : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}

// Rules composed: the saturating sum of two rounding averages is three
// instructions, found by no search of one or two (the window reads four
// inputs), but by the e-graph, where the sum's rule reads the averages' (the
// window is 17 ops: max-ops=24 above).
// CHECK-LABEL: func.func @composed
// CHECK-DAG: %[[X:.*]] = autollvm.avg_u %arg0, %arg1
// CHECK-DAG: %[[Y:.*]] = autollvm.avg_u %arg2, %arg3
// CHECK: autollvm.add_sat_u %{{[0-9]+}}, %{{[0-9]+}}
// CHECK-NOT: arith.
// REMARK: rules.mlir:[[@LINE+21]]:3: remark: {{.*}}1 rewritten (1 by a rule, not from the memo)
func.func @composed(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<32xi8>, %d: vector<32xi8>) -> vector<32xi8> {
  %one = arith.constant dense<1> : vector<32xi16>
  %max = arith.constant dense<255> : vector<32xi16>
  %a16 = arith.extui %a : vector<32xi8> to vector<32xi16>
  %b16 = arith.extui %b : vector<32xi8> to vector<32xi16>
  %s0 = arith.addi %a16, %b16 : vector<32xi16>
  %s1 = arith.addi %s0, %one : vector<32xi16>
  %h0 = arith.shrui %s1, %one : vector<32xi16>
  %x = arith.trunci %h0 : vector<32xi16> to vector<32xi8>
  %c16 = arith.extui %c : vector<32xi8> to vector<32xi16>
  %d16 = arith.extui %d : vector<32xi8> to vector<32xi16>
  %t0 = arith.addi %c16, %d16 : vector<32xi16>
  %t1 = arith.addi %t0, %one : vector<32xi16>
  %h1 = arith.shrui %t1, %one : vector<32xi16>
  %y = arith.trunci %h1 : vector<32xi16> to vector<32xi8>
  %x16 = arith.extui %x : vector<32xi8> to vector<32xi16>
  %y16 = arith.extui %y : vector<32xi8> to vector<32xi16>
  %s = arith.addi %x16, %y16 : vector<32xi16>
  %m = arith.minui %s, %max : vector<32xi16>
  %r = arith.trunci %m : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}
