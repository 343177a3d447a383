// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(convert-hydride-arm-to-llvm)' %s | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(convert-hydride-arm-to-llvm)' %s | %mlir_opt %to_llvm | mlir-translate --mlir-to-llvmir | llc -mtriple=aarch64-linux-gnu -mattr=+neon -o - | FileCheck %s --check-prefix=ASM
// A scalar instruction whose intrinsic takes one-element vectors (the
// saturating shift left of a 64-bit scalar, `sqshl d, d, #n`): the scalar
// is cast to a vector of one element and its immediate is a constant of
// that vector type, the value in its element.

// CHECK-LABEL: func.func @sqshl_scalar
// CHECK: llvm.bitcast %{{.*}} : i64 to vector<1xi64>
// CHECK: llvm.mlir.constant(dense<3> : vector<1xi64>) : vector<1xi64>
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.sqshl.v1i64"
// ASM-LABEL: sqshl_scalar:
// ASM: sqshl d{{[0-9]+}}, d{{[0-9]+}}, #3
func.func @sqshl_scalar(%x: i64) -> i64 {
  %r = "hydride_arm.vqshl_n_s64"(%x) {n = 3 : i32} : (i64) -> i64
  return %r : i64
}
