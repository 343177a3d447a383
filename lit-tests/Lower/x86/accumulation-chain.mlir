// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=sapphirerapids}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cpu=znver4 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ZEN4
// An accumulation unrolled by hand: four widening products of u8 and i16
// lanes summed into one i32 accumulator, one after the other. The window
// at each sum takes the whole chain before it (nine inputs, more than
// instructions read), so the search also tries one step of the chain: the
// sum before it read as an input. Each step is then one multiply-add of
// 16-bit pairs into 32-bit lanes (vpdpwssd: the zero-extended byte's high
// half is zero, so each pair sums one product), taken on Sapphire Rapids
// where the model prices it no dearer than the products and sums; on
// Zen 4 its model prices the step dearer (2.67 cycles against 2.00), so
// the chain stays as written.
// ZEN4: the cheapest program found takes {{[0-9.]+}} cycles on cpu znver4, more than the window's {{[0-9.]+}} cycles
// ZEN4-NOT: autollvm.dot_acc
// CHECK-LABEL: func.func @four_steps
// CHECK-COUNT-4: autollvm.dot_acc_s_widen
// CHECK-NOT: arith.muli
// CHECK: return
func.func @four_steps(%acc: vector<16xi32>, %a0: vector<16xi8>, %a1: vector<16xi8>, %a2: vector<16xi8>, %a3: vector<16xi8>,
                      %b0: vector<16xi16>, %b1: vector<16xi16>, %b2: vector<16xi16>, %b3: vector<16xi16>) -> vector<16xi32> {
  %x0 = arith.extui %a0 : vector<16xi8> to vector<16xi32>
  %y0 = arith.extsi %b0 : vector<16xi16> to vector<16xi32>
  %p0 = arith.muli %x0, %y0 : vector<16xi32>
  %s0 = arith.addi %acc, %p0 : vector<16xi32>
  %x1 = arith.extui %a1 : vector<16xi8> to vector<16xi32>
  %y1 = arith.extsi %b1 : vector<16xi16> to vector<16xi32>
  %p1 = arith.muli %x1, %y1 : vector<16xi32>
  %s1 = arith.addi %s0, %p1 : vector<16xi32>
  %x2 = arith.extui %a2 : vector<16xi8> to vector<16xi32>
  %y2 = arith.extsi %b2 : vector<16xi16> to vector<16xi32>
  %p2 = arith.muli %x2, %y2 : vector<16xi32>
  %s2 = arith.addi %s1, %p2 : vector<16xi32>
  %x3 = arith.extui %a3 : vector<16xi8> to vector<16xi32>
  %y3 = arith.extsi %b3 : vector<16xi16> to vector<16xi32>
  %p3 = arith.muli %x3, %y3 : vector<16xi32>
  %s3 = arith.addi %s2, %p3 : vector<16xi32>
  return %s3 : vector<16xi32>
}
