// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-piece-order{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-piece-order{target=x86-avx512 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=ZMM
// hydride-piece-order alone: a clamped difference xor a sum over 64 16-bit
// lanes (four ymm registers per value at x86-avx2) is computed in four
// pieces of 16 lanes, one after the other. At x86-avx512 the values take two
// zmm registers, few enough to stay as they are.

// CHECK: remark: hydride-piece-order: 64 lanes stored computed in 4 pieces of 16 lanes, one after the other: at most 5 registers live instead of 20 of the target's 16 (proved equal)
// CHECK-LABEL: func.func @clamped_blend
// CHECK-COUNT-8: vector.load {{.*}} vector<16xi16>
// CHECK-COUNT-4: vector.store {{.*}} vector<16xi16>
// ZMM-NOT: remark: hydride-piece-order: 64 lanes
// ZMM: vector.load {{.*}} vector<64xi16>
// ZMM: vector.store {{.*}} vector<64xi16>
func.func @clamped_blend(%a: memref<?xi16>, %b: memref<?xi16>, %o: memref<?xi16>, %i: index) {
  %x = vector.load %a[%i] : memref<?xi16>, vector<64xi16>
  %y = vector.load %b[%i] : memref<?xi16>, vector<64xi16>
  %lo = arith.constant dense<-100> : vector<64xi16>
  %hi = arith.constant dense<100> : vector<64xi16>
  %d = arith.subi %x, %y : vector<64xi16>
  %s = arith.addi %x, %y : vector<64xi16>
  %p = arith.maxsi %d, %lo : vector<64xi16>
  %q = arith.minsi %p, %hi : vector<64xi16>
  %r = arith.xori %q, %s : vector<64xi16>
  vector.store %r, %o[%i] : memref<?xi16>, vector<64xi16>
  return
}
