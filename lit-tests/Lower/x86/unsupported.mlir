// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512 remarks=true cache-dir=%t.cache})' %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// Input the synthesizer does not model is left as it is, without failing:
// floats, index arithmetic, scalable and 0-d vectors, ops with regions,
// unknown ops between supported ones, and loop bodies (windows inside).
// Every arith or vector op on vectors it passes over gets a remark saying why.
// REMARK-DAG: unsupported.mlir:19:8: remark: arith.addf left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<16xf32>
// REMARK-DAG: unsupported.mlir:20:8: remark: arith.mulf left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<16xf32>
// REMARK-DAG: unsupported.mlir:30:8: remark: arith.addi left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<[4]xi32>
// REMARK-DAG: unsupported.mlir:31:8: remark: arith.muli left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<[4]xi32>
// REMARK-DAG: unsupported.mlir:38:8: remark: arith.addi left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<i32>
// REMARK-DAG: unsupported.mlir:39:8: remark: arith.muli left to LLVM's lowering: synthesis models fixed-size vectors of integers, not vector<i32>

// CHECK-LABEL: func.func @floats
// CHECK: arith.addf
// CHECK: arith.mulf
func.func @floats(%a: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %0 = arith.addf %a, %b : vector<16xf32>
  %1 = arith.mulf %0, %b : vector<16xf32>
  return %1 : vector<16xf32>
}

// CHECK-LABEL: func.func @index_and_scalable
// CHECK: arith.addi %{{.*}} : index
// CHECK: arith.addi %{{.*}} : vector<[4]xi32>
func.func @index_and_scalable(%i: index, %j: index, %a: vector<[4]xi32>, %b: vector<[4]xi32>) -> (index, vector<[4]xi32>) {
  %0 = arith.addi %i, %j : index
  %1 = arith.muli %0, %j : index
  %2 = arith.addi %a, %b : vector<[4]xi32>
  %3 = arith.muli %2, %b : vector<[4]xi32>
  return %1, %3 : index, vector<[4]xi32>
}

// CHECK-LABEL: func.func @zero_d
// CHECK: arith.addi %{{.*}} : vector<i32>
func.func @zero_d(%a: vector<i32>, %b: vector<i32>) -> vector<i32> {
  %0 = arith.addi %a, %b : vector<i32>
  %1 = arith.muli %0, %b : vector<i32>
  return %1 : vector<i32>
}

// A saturating add inside a loop body is still found; the loop stays.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: autollvm.add_sat_s
// REMARK-NOT: internal error
func.func @in_loop(%a: vector<32xi16>, %b: vector<32xi16>, %n: index) -> vector<32xi16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant dense<-32768> : vector<32xi32>
  %hi = arith.constant dense<32767> : vector<32xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (vector<32xi16>) {
    %ae = arith.extsi %acc : vector<32xi16> to vector<32xi32>
    %be = arith.extsi %b : vector<32xi16> to vector<32xi32>
    %s = arith.addi %ae, %be : vector<32xi32>
    %c2 = arith.maxsi %s, %lo : vector<32xi32>
    %c3 = arith.minsi %c2, %hi : vector<32xi32>
    %t = arith.trunci %c3 : vector<32xi32> to vector<32xi16>
    scf.yield %t : vector<32xi16>
  }
  return %r : vector<32xi16>
}

// An op the synthesizer does not know splits the dataflow: the windows on
// either side are tried on their own.
// CHECK-LABEL: func.func @unknown_between
// CHECK: vector.extract
func.func @unknown_between(%a: vector<16xi32>, %b: vector<16xi32>) -> i32 {
  %0 = arith.addi %a, %b : vector<16xi32>
  %1 = arith.muli %0, %b : vector<16xi32>
  %2 = vector.extract %1[3] : i32 from vector<16xi32>
  %3 = arith.addi %2, %2 : i32
  %4 = arith.muli %3, %2 : i32
  return %4 : i32
}

// Integer ops outside the semantics split windows too, each with a remark.
// CHECK-LABEL: func.func @outside_semantics
// CHECK: math.absi
// CHECK: arith.ceildivui
// REMARK-DAG: unsupported.mlir:[[@LINE+3]]:8: remark: math.absi left to LLVM's lowering: it is not among the ops synthesis has semantics for
// REMARK-DAG: unsupported.mlir:[[@LINE+3]]:8: remark: arith.ceildivui left to LLVM's lowering: it is not among the ops synthesis has semantics for
func.func @outside_semantics(%a: vector<16xi32>, %b: vector<16xi32>) -> vector<16xi32> {
  %0 = math.absi %a : vector<16xi32>
  %1 = arith.ceildivui %0, %b : vector<16xi32>
  return %1 : vector<16xi32>
}

// Every block where windows were searched gets a summary remark: what was
// searched and how many windows were rewritten or left unchanged, by reason.
// REMARK-DAG: unsupported.mlir:60:5: remark: hydride-synthesize searched 1 windows of this block at target x86-avx512 (cpu znver4): programs of one target intrinsic, or two instructions holding one, or three: one instruction over two one-step values (budget 8000 pairings, a quarter of them for three), of a matrix result also its transpose, over the {{[0-9]+}} instructions of the grammar the target has ({{[0-9]+}} of them intrinsics), after the offline rules; 1 rewritten ({{[0-9]+}} by a rule, not from the memo), 0 left unchanged
// REMARK-DAG: unsupported.mlir:75:3: remark: hydride-synthesize searched 3 windows of this block at target x86-avx512 (cpu znver4): {{.*}}; 0 rewritten (0 by a rule, not from the memo), 3 left unchanged (3: no program of one, two or three target instructions computes this window on sample inputs)
