// REQUIRES: host-x86-avx2
// target=native is what this host executes, less HYDRIDE_WITHHOLD_FEATURES:
// with AVX-512 and VNNI withheld, the u8×s8 dot product cannot become
// vpdpbusd, and the remark names the target native resolved to.
// RUN: env HYDRIDE_WITHHOLD_FEATURES='avx512*,avx_vnni,gfni' %hydride_opt --lower-to-autollvm='remarks=true cache-dir=%t.cache' %s 2>%t.remarks | FileCheck %s --check-prefix=WITHHELD
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: env HYDRIDE_WITHHOLD_FEATURES='avx512*,avx_vnni,gfni' %hydride host | FileCheck %s --check-prefix=HOST

// HOST: tuned for: {{[a-z0-9-]+}} (
// HOST: target: x86-avx2 (what target=native means here)
// REMARK: native.mlir:[[@LINE+10]]:{{.*}} remark: window of {{[0-9]+}} ops left unchanged (target native=x86-avx2):

// WITHHELD-LABEL: func.func @dot
// WITHHELD-NOT: dpbusd
// WITHHELD: vector.multi_reduction
func.func @dot(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}
