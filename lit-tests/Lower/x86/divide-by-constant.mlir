// RUN: rm -rf %t.cache
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-divide-by-constant{target=x86-avx2 cache-dir=%t.cache remarks=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-divide-by-constant{target=x86-avx2 cache-dir=%t.cache}))' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-divide-by-constant{target=x86-avx2 cpu=znver3 cache-dir=%t.cache remarks=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=INPLACE
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache})' %s | FileCheck %s --check-prefix=AVX2
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-divide-by-constant{target=aarch64-neon cache-dir=%t.cache}))' %s | FileCheck %s --check-prefix=NEON
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(hydride-divide-by-constant{target=hexagon-hvx128 cache-dir=%t.cache remarks=true}))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=HVX
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx2 cache-dir=%t.cache},convert-autollvm-to-x86,convert-hydride-x86-to-llvm)' %s | %mlir_opt %to_llvm | mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=x86-64-v3 | FileCheck %s --check-prefix=ASM
// hydride-divide-by-constant: unsigned lanes divided by a constant whose
// multiply-high magic needs one bit more than the lanes have (LLVM then
// subtracts, shifts, adds and shifts) become a multiply-high, a rounding
// average with the dividend and a shift, proved by Z3; the synthesis then
// gives the average vpavgw (urhadd on NEON) by its offline rule. Divisors
// LLVM divides as briefly are left, and so is every division at a target
// without that rule (Hexagon has no offline rules).
// A dividend wider than the target's registers is divided one register at
// a time (two pieces of 8 lanes for 16 at NEON).
// NEON-LABEL: func.func @mean_of_seven
// NEON-COUNT-2: vector.extract_strided_slice {{.*}} : vector<16xi16> to vector<8xi16>
// NEON: vector.shuffle {{.*}} : vector<8xi16>, vector<8xi16>
// NEON-NOT: arith.divui
// NEON: return
// HVX-COUNT-3: remark: hydride-divide-by-constant: {{.*}} left to LLVM: hexagon-hvx128 has no offline rule giving a rounding average of u{{8|16}} lanes one instruction
// Execution: Run/x86/divide-by-constant-avx2.test, Run/arm/divide-by-constant.test.

// A mean of seven 16-bit counts.
// REMARK: divide-by-constant.mlir:[[@LINE+13]]:8: remark: hydride-divide-by-constant: u16 lanes divided by 7 as a multiply-high by 9362, a rounding average with the dividend and a shift right by 2 (proved equal)
// CHECK-LABEL: func.func @mean_of_seven
// CHECK-NOT: arith.divui
// CHECK: arith.constant dense<9362> : vector<16xi16>
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi16>
// CHECK: arith.shrui {{.*}} : vector<16xi16>
// AVX2-LABEL: func.func @mean_of_seven
// AVX2-NOT: arith.divui
// AVX2: autollvm.
// AVX2-NOT: arith.divui
// AVX2: return
func.func @mean_of_seven(%x: vector<16xi16>) -> vector<16xi16> {
  %d = arith.constant dense<7> : vector<16xi16>
  %q = arith.divui %x, %d : vector<16xi16>
  return %q : vector<16xi16>
}

// Milliseconds to seconds of a 16-bit tick count at 641 ticks a second,
// 32 lanes: two registers at AVX2.
// REMARK: divide-by-constant.mlir:[[@LINE+6]]:8: remark: hydride-divide-by-constant: u16 lanes divided by 641 as a multiply-high by 39158, a rounding average with the dividend and a shift right by 9 (proved equal)
// CHECK-LABEL: func.func @ticks_to_seconds
// AVX2-LABEL: func.func @ticks_to_seconds
// CHECK-NOT: arith.divui
func.func @ticks_to_seconds(%x: vector<32xi16>) -> vector<32xi16> {
  %d = arith.constant dense<641> : vector<32xi16>
  %q = arith.divui %x, %d : vector<32xi16>
  return %q : vector<32xi16>
}

// Bytes divided by 7: the multiply-high is LLVM's (x86 has none for
// bytes), the average vpavgb.
// REMARK: divide-by-constant.mlir:[[@LINE+5]]:8: remark: hydride-divide-by-constant: u8 lanes divided by 7 as a multiply-high by 36, a rounding average with the dividend and a shift right by 2 (proved equal)
// CHECK-LABEL: func.func @bytes_by_seven
// CHECK-NOT: arith.divui
func.func @bytes_by_seven(%x: vector<32xi8>) -> vector<32xi8> {
  %d = arith.constant dense<7> : vector<32xi8>
  %q = arith.divui %x, %d : vector<32xi8>
  return %q : vector<32xi8>
}

// 9 has 16-bit magic (multiply-high and shift), 10 is even (LLVM shifts
// it out first), 16 is a power of two, 32-bit lanes are not searched: all
// left to LLVM, without a remark.
// REMARK-NOT: remark
// CHECK-LABEL: func.func @left_to_llvm
// CHECK-COUNT-4: arith.divui
func.func @left_to_llvm(%x: vector<16xi16>, %y: vector<8xi32>) -> (vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<8xi32>) {
  %nine = arith.constant dense<9> : vector<16xi16>
  %ten = arith.constant dense<10> : vector<16xi16>
  %sixteen = arith.constant dense<16> : vector<16xi16>
  %seven = arith.constant dense<7> : vector<8xi32>
  %a = arith.divui %x, %nine : vector<16xi16>
  %b = arith.divui %x, %ten : vector<16xi16>
  %c = arith.divui %x, %sixteen : vector<16xi16>
  %d = arith.divui %y, %seven : vector<8xi32>
  return %a, %b, %c, %d : vector<16xi16>, vector<16xi16>, vector<16xi16>, vector<8xi32>
}

// Signed division and divisors that are not one splat are not this
// rewrite's.
// CHECK-LABEL: func.func @not_unsigned_splat
// CHECK: arith.divsi
// CHECK: arith.divui
func.func @not_unsigned_splat(%x: vector<8xi16>) -> (vector<8xi16>, vector<8xi16>) {
  %seven = arith.constant dense<7> : vector<8xi16>
  %mixed = arith.constant dense<[7, 7, 7, 7, 25, 25, 25, 25]> : vector<8xi16>
  %a = arith.divsi %x, %seven : vector<8xi16>
  %b = arith.divui %x, %mixed : vector<8xi16>
  return %a, %b : vector<8xi16>, vector<8xi16>
}

// ASM-LABEL: mean_of_seven:
// ASM: vpmulhuw
// ASM-NEXT: vpavgw
// ASM-NEXT: vpsrlw $2
// ASM-LABEL: ticks_to_seconds:
// ASM-COUNT-2: vpavgw
// ASM-LABEL: bytes_by_seven:
// ASM: vpavgb

// A mean of seven rows of bytes: the division lies in an extend-compute-
// truncate region that hydride-in-place-widening computes on the bytes
// where they lie in 16-bit lanes, cheaper on the CPU's model than the
// rewritten division with the bytes extended; it is left to that rewrite.
// REMARK: divide-by-constant.mlir:[[@LINE+20]]:8: remark: hydride-divide-by-constant: u16 lanes divided by 7 left as it is
// INPLACE: divide-by-constant.mlir:[[@LINE+19]]:8: remark: hydride-divide-by-constant: u16 lanes divided by 7 left as it is: hydride-in-place-widening computes its region on the narrow elements, cheaper on the CPU's model
// CHECK-LABEL: func.func @mean_of_seven_rows
// CHECK: arith.divui
func.func @mean_of_seven_rows(%r0: vector<32xi8>, %r1: vector<32xi8>, %r2: vector<32xi8>, %r3: vector<32xi8>,
                              %r4: vector<32xi8>, %r5: vector<32xi8>, %r6: vector<32xi8>) -> vector<32xi8> {
  %e0 = arith.extui %r0 : vector<32xi8> to vector<32xi16>
  %e1 = arith.extui %r1 : vector<32xi8> to vector<32xi16>
  %e2 = arith.extui %r2 : vector<32xi8> to vector<32xi16>
  %e3 = arith.extui %r3 : vector<32xi8> to vector<32xi16>
  %e4 = arith.extui %r4 : vector<32xi8> to vector<32xi16>
  %e5 = arith.extui %r5 : vector<32xi8> to vector<32xi16>
  %e6 = arith.extui %r6 : vector<32xi8> to vector<32xi16>
  %s1 = arith.addi %e0, %e1 : vector<32xi16>
  %s2 = arith.addi %s1, %e2 : vector<32xi16>
  %s3 = arith.addi %s2, %e3 : vector<32xi16>
  %s4 = arith.addi %s3, %e4 : vector<32xi16>
  %s5 = arith.addi %s4, %e5 : vector<32xi16>
  %s6 = arith.addi %s5, %e6 : vector<32xi16>
  %d = arith.constant dense<7> : vector<32xi16>
  %q = arith.divui %s6, %d : vector<32xi16>
  %t = arith.trunci %q : vector<32xi16> to vector<32xi8>
  return %t : vector<32xi8>
}

