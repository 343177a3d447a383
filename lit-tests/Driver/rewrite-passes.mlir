// RUN: %hydride_opt --help | FileCheck %s --check-prefix=HELP
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-contract-elementwise,hydride-sum-as-dot{target=x86-avx2},hydride-synthesize{target=x86-avx2},hydride-in-place-widening{target=x86-avx2}))' %s 2>&1 | FileCheck %s --check-prefix=SUBSET
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2}))' --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// lower-to-autollvm is the pipeline of the hydride rewrites; each is a pass
// of its own, so a pipeline may leave some out. Without hydride-piece-order
// a 1024-bit region at x86-avx2 stays whole.

// HELP: --hydride-column-extrema
// HELP: --hydride-contract-elementwise
// HELP: --hydride-deinterleaved-extrema
// HELP: --hydride-divide-by-constant
// HELP: --hydride-equal-weights
// HELP: --hydride-even-odd
// HELP: --hydride-in-place-widening
// HELP: --hydride-piece-order
// HELP: --hydride-private-extensions
// HELP: --hydride-split-contract
// HELP: --hydride-sum-as-dot
// HELP: --hydride-synthesize
// HELP: --block-ms=
// HELP: --lower-to-autollvm
// PIPELINE: hydride-contract-elementwise{cpu= remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-private-extensions{cpu= remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-even-odd{cpu= remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-sum-as-dot{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-split-contract{cpu= remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-equal-weights{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-deinterleaved-extrema{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-divide-by-constant{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-synthesize{block-ms=20000 cache-dir= cone-ops=4096 cpu= max-ops=16 proof-ms=20000 remarks=false target=x86-avx2 two-step-budget=8000 window-ms=60000},
// PIPELINE-NEXT: hydride-in-place-widening{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-column-extrema{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2},
// PIPELINE-NEXT: hydride-piece-order{cache-dir= cpu= proof-ms=20000 remarks=false target=x86-avx2}
// WHOLE: remark: hydride-piece-order: 64 lanes stored computed in 4 pieces
// SUBSET-NOT: hydride-piece-order
// SUBSET: vector.store {{.*}} vector<64xi16>
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
