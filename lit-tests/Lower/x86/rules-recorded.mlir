// RUN: rm -rf %t.rules %t.first-cache %t.second-cache
// RUN: env HYDRIDE_RULES=%t.rules %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true cache-dir=%t.first-cache}))' %s 2>%t.first | FileCheck %s
// RUN: FileCheck %s --check-prefix=FIRST < %t.first
// RUN: FileCheck %s --check-prefix=RECORDED < %t.rules
// RUN: env HYDRIDE_RULES=%t.rules %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true cache-dir=%t.second-cache}))' %s 2>%t.second | FileCheck %s
// RUN: FileCheck %s --check-prefix=SECOND < %t.second
// What the search finds is recorded as a rule in the file HYDRIDE_RULES
// names; a later compilation reading the file applies the rule by equality
// saturation (proved again) instead of searching, with a fresh memo.

// CHECK-LABEL: func.func @max_of_bytes
// CHECK: autollvm.{{.*}} %arg0, %arg1
// CHECK-NOT: arith.maxui
// FIRST: remark: {{.*}}1 rewritten (0 by a rule, not from the memo)
// RECORDED: {"idiom":"recorded","target":"x86-avx2","lhs":{"op":{"op":"arith.trunci
// SECOND: remark: {{.*}}1 rewritten (1 by a rule, not from the memo)
func.func @max_of_bytes(%a: vector<32xi8>, %b: vector<32xi8>) -> vector<32xi8> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi16>
  %y = arith.extui %b : vector<32xi8> to vector<32xi16>
  %m = arith.maxui %x, %y : vector<32xi16>
  %r = arith.trunci %m : vector<32xi16> to vector<32xi8>
  return %r : vector<32xi8>
}
