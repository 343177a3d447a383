// RUN: rm -rf %t.cache
// RUN: %hydride_opt --lower-to-autollvm='target=x86-avx512 cache-dir=%t.cache' %s | FileCheck %s --check-prefix=AUTOLLVM
// RUN: env HYDRIDE_CACHE_DIR=%t.cache %hydride_opt --hydride-x86-to-llvm='target=x86-avx512' %s | FileCheck %s
// The pipeline's default target is native: with AVX-512 and VNNI withheld there is no vpdpbusd.
// RUN: env HYDRIDE_CACHE_DIR=%t.cache HYDRIDE_WITHHOLD_FEATURES='avx512*,avx_vnni,gfni' %hydride_opt --hydride-x86-to-llvm %s | FileCheck %s --check-prefix=AVX2HOST
// RUN: not %hydride_opt --lower-to-autollvm='target=riscv' %s 2>&1 | FileCheck %s --check-prefix=BADTARGET
// hydride-opt takes the passes as flags and has the whole lowering as one pipeline.

// AUTOLLVM: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
// CHECK: llvm.func @dot
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%arg2, %arg0, %arg1)
// CHECK-NOT: vector.multi_reduction
// AVX2HOST: llvm.func @dot
// AVX2HOST-NOT: vpdpbusd
// AVX2HOST: llvm.return
// BADTARGET: error: lower-to-autollvm: unknown target 'riscv' (known: native, x86-avx512, x86-avx2, aarch64-neon, aarch64-neon-dotprod-i8mm, hexagon-hvx128)
func.func @dot(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}
