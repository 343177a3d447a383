// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true cache-dir=%t.cache}))' %s 2>%t.remarks | FileCheck %s --check-prefix=AVX2
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=AVX512
// RUN: FileCheck %s --check-prefix=PROVED < %S/../../../generated/x86/rules.json
// A 4-way u8 x s8 dot product into i32 lanes. At AVX-512 (VNNI) it is one
// vpdpbusd. At AVX2, where no instruction computes it, it is rewritten by the
// proved identity dot4_acc_u8s8x8_even_odd (generated/x86/rules.json) into
// two 2-way dot products of the even and odd bytes held in 16-bit lanes; the
// offline rules give each vpmaddwd and an add. The unsigned even bytes are
// masked (vpand), the unsigned odd bytes become the shift by an immediate
// (vpsrlw $8), the signed ones stay arith shifts (cut points of the
// e-graph's term).

// PROVED: "name": "dot4_acc_u8s8x8_even_odd",

// AVX512-LABEL: func.func @dot4
// AVX512: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
// AVX2-LABEL: func.func @dot4
// AVX2-DAG: arith.andi %{{.*}}, %{{.*}} : vector<16xi16>
// AVX2-DAG: autollvm.shr_by_imm_u %{{.*}} {{{.*}}shift = 8 : i32
// AVX2-DAG: arith.shrsi
// AVX2: %[[E:.*]] = autollvm.dot_s
// AVX2: %[[S:.*]] = autollvm.add %arg2, %[[E]]
// AVX2: %[[O:.*]] = autollvm.dot_s
// AVX2: autollvm.add %[[S]], %[[O]]
// AVX2-NOT: vector.multi_reduction
// AVX2-NOT: arith.muli
// REMARK: even-odd.mlir:[[@LINE+7]]:3: remark: {{.*}}(1 by a rule, not from the memo)
func.func @dot4(%a: vector<32xi8>, %b: vector<32xi8>, %c: vector<8xi32>) -> vector<8xi32> {
  %x = arith.extui %a : vector<32xi8> to vector<32xi32>
  %y = arith.extsi %b : vector<32xi8> to vector<32xi32>
  %p = arith.muli %x, %y : vector<32xi32>
  %g = vector.shape_cast %p : vector<32xi32> to vector<8x4xi32>
  %r = vector.multi_reduction <add>, %g, %c [1] : vector<8x4xi32> to vector<8xi32>
  return %r : vector<8xi32>
}

// Twice the register width at AVX2, the mask stays one arith op over the
// whole value (two vpand), not a program per 128-bit piece; the 2-way dot
// products are left to LLVM, which makes each piece's vpmaddwd.
// AVX512-LABEL: func.func @dot4_wide
// AVX512: autollvm.dot_acc_su_widen %arg0, %arg1, %arg2
// AVX2-LABEL: func.func @dot4_wide
// AVX2: arith.andi %{{.*}}, %{{.*}} : vector<32xi16>
// AVX2-NOT: autollvm.neg
// AVX2: return
func.func @dot4_wide(%a: vector<64xi8>, %b: vector<64xi8>, %c: vector<16xi32>) -> vector<16xi32> {
  %x = arith.extui %a : vector<64xi8> to vector<64xi32>
  %y = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %x, %y : vector<64xi32>
  %g = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %g, %c [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}
