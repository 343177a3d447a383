// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache}))' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512 cache-dir=%t.cache cone-ops=0}))' %s | FileCheck %s --check-prefix=NOCONE
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=AVX2
// Code that spells an instruction out at length: no window of max-ops
// ops computes it, but the root's whole cone, read from one input, is one
// instruction, proved. A count of leading zeros by halving (as C writes it
// without a builtin) is AVX-512CD's vplzcntd; AVX2 has no such instruction
// and the code stays as written.

// CHECK-LABEL: func.func @leading_zeros_by_halving
// CHECK-NEXT: autollvm.clz_or_cls %arg0
// CHECK-NEXT: return
// NOCONE-LABEL: func.func @leading_zeros_by_halving
// NOCONE-NOT: autollvm.clz_or_cls
// NOCONE: return
// AVX2-LABEL: func.func @leading_zeros_by_halving
// AVX2-NOT: autollvm.clz_or_cls
// AVX2: return
func.func @leading_zeros_by_halving(%x: vector<4xi32>) -> vector<4xi32> {
  %zero = arith.constant dense<0> : vector<4xi32>
  %k16 = arith.constant dense<16> : vector<4xi32>
  %k8 = arith.constant dense<8> : vector<4xi32>
  %k4 = arith.constant dense<4> : vector<4xi32>
  %k2 = arith.constant dense<2> : vector<4xi32>
  %k1 = arith.constant dense<1> : vector<4xi32>
  %b16 = arith.constant dense<65536> : vector<4xi32>
  %b24 = arith.constant dense<16777216> : vector<4xi32>
  %b28 = arith.constant dense<268435456> : vector<4xi32>
  %b30 = arith.constant dense<1073741824> : vector<4xi32>
  %b31 = arith.constant dense<-2147483648> : vector<4xi32>
  %c1 = arith.cmpi ult, %x, %b16 : vector<4xi32>
  %n1 = arith.select %c1, %k16, %zero : vector<4xi1>, vector<4xi32>
  %s1 = arith.shli %x, %k16 : vector<4xi32>
  %x1 = arith.select %c1, %s1, %x : vector<4xi1>, vector<4xi32>
  %c2 = arith.cmpi ult, %x1, %b24 : vector<4xi32>
  %a2 = arith.addi %n1, %k8 : vector<4xi32>
  %n2 = arith.select %c2, %a2, %n1 : vector<4xi1>, vector<4xi32>
  %s2 = arith.shli %x1, %k8 : vector<4xi32>
  %x2 = arith.select %c2, %s2, %x1 : vector<4xi1>, vector<4xi32>
  %c3 = arith.cmpi ult, %x2, %b28 : vector<4xi32>
  %a3 = arith.addi %n2, %k4 : vector<4xi32>
  %n3 = arith.select %c3, %a3, %n2 : vector<4xi1>, vector<4xi32>
  %s3 = arith.shli %x2, %k4 : vector<4xi32>
  %x3 = arith.select %c3, %s3, %x2 : vector<4xi1>, vector<4xi32>
  %c4 = arith.cmpi ult, %x3, %b30 : vector<4xi32>
  %a4 = arith.addi %n3, %k2 : vector<4xi32>
  %n4 = arith.select %c4, %a4, %n3 : vector<4xi1>, vector<4xi32>
  %s4 = arith.shli %x3, %k2 : vector<4xi32>
  %x4 = arith.select %c4, %s4, %x3 : vector<4xi1>, vector<4xi32>
  %c5 = arith.cmpi ult, %x4, %b31 : vector<4xi32>
  %a5 = arith.addi %n4, %k1 : vector<4xi32>
  %n5 = arith.select %c5, %a5, %n4 : vector<4xi1>, vector<4xi32>
  %s5 = arith.shli %x4, %k1 : vector<4xi32>
  %x5 = arith.select %c5, %s5, %x4 : vector<4xi1>, vector<4xi32>
  %c6 = arith.cmpi eq, %x5, %zero : vector<4xi32>
  %a6 = arith.addi %n5, %k1 : vector<4xi32>
  %n6 = arith.select %c6, %a6, %n5 : vector<4xi1>, vector<4xi32>
  return %n6 : vector<4xi32>
}

// A shift left by counts from a register, as code guards it (a count of
// the lane's width or more gives zero): `vpsllvd`, one instruction. Random
// samples put nearly every count out of range; the samples of small
// numbers tell the shifts apart.
// CHECK-LABEL: func.func @guarded_variable_shift
// CHECK-NEXT: autollvm.shl_binary %arg1, %arg0
// CHECK-NEXT: return
func.func @guarded_variable_shift(%x: vector<16xi32>, %n: vector<16xi32>) -> vector<16xi32> {
  %w = arith.constant dense<32> : vector<16xi32>
  %zero = arith.constant dense<0> : vector<16xi32>
  %in = arith.cmpi ult, %n, %w : vector<16xi32>
  %s = arith.shli %x, %n : vector<16xi32>
  %r = arith.select %in, %s, %zero : vector<16xi1>, vector<16xi32>
  return %r : vector<16xi32>
}
