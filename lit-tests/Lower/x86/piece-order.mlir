// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx2 remarks=true}))' %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(func.func(lower-to-autollvm{target=x86-avx512}))' %s | FileCheck %s --check-prefix=ZMM
// A median-of-9 network over 512-bit loads at x86-avx2: each of the nine
// loaded vectors takes two ymm registers, and LLVM, splitting each op where
// it stands, keeps both halves of all of them live (its loop spills 40
// times). Computed piece after piece, the second half's loads come after
// the first half is done, and both stores last. At AVX-512 a vector is one
// register and nothing changes. A store between the loads and the region's
// store (it may write what a piece's loads, moved after it, would read)
// keeps the region as it is.

// CHECK: remark: hydride-piece-order: 64 lanes stored computed in 2 pieces of 32 lanes, one after the other: at most {{[0-9]+}} registers live instead of {{[0-9]+}} of the target's 16 (proved equal)
// CHECK-LABEL: func.func @median(
// CHECK-NOT: vector<64xi8>
// CHECK-COUNT-9: vector.load {{.*}} vector<32xi8>
// CHECK: arith.minui
// CHECK-COUNT-9: vector.load {{.*}} vector<32xi8>
// CHECK: vector.store {{.*}} vector<32xi8>
// CHECK-NEXT: arith.constant 32 : index
// CHECK-NEXT: arith.addi
// CHECK-NEXT: vector.store {{.*}} vector<32xi8>
// CHECK-NOT: vector<64xi8>
// CHECK: return
// CHECK-LABEL: func.func @median_store_between(
// CHECK-NOT: vector<32xi8>
// CHECK: return
// ZMM-LABEL: func.func @median(
// ZMM-NOT: vector<32xi8>
// ZMM: vector.store {{.*}} vector<64xi8>
// ZMM-NOT: vector<32xi8>
// ZMM: return

func.func @median(%src: memref<?xi8>, %dst: memref<?xi8>, %base: index) {
  %offm1921 = arith.constant -1921 : index
  %offm1920 = arith.constant -1920 : index
  %offm1919 = arith.constant -1919 : index
  %offm1 = arith.constant -1 : index
  %offp1 = arith.constant 1 : index
  %offp1919 = arith.constant 1919 : index
  %offp1920 = arith.constant 1920 : index
  %offp1921 = arith.constant 1921 : index
  %v7 = arith.addi %base, %offm1921 : index
  %v6 = vector.load %src[%v7] : memref<?xi8>, vector<64xi8>
  %v10 = arith.addi %base, %offm1920 : index
  %v9 = vector.load %src[%v10] : memref<?xi8>, vector<64xi8>
  %v12 = arith.addi %base, %offm1919 : index
  %v11 = vector.load %src[%v12] : memref<?xi8>, vector<64xi8>
  %v8 = arith.minui %v9, %v11 : vector<64xi8>
  %v5 = arith.minui %v6, %v8 : vector<64xi8>
  %v15 = arith.addi %base, %offm1 : index
  %v14 = vector.load %src[%v15] : memref<?xi8>, vector<64xi8>
  %v17 = vector.load %src[%base] : memref<?xi8>, vector<64xi8>
  %v19 = arith.addi %base, %offp1 : index
  %v18 = vector.load %src[%v19] : memref<?xi8>, vector<64xi8>
  %v16 = arith.minui %v17, %v18 : vector<64xi8>
  %v13 = arith.minui %v14, %v16 : vector<64xi8>
  %v4 = arith.maxui %v5, %v13 : vector<64xi8>
  %v22 = arith.addi %base, %offp1919 : index
  %v21 = vector.load %src[%v22] : memref<?xi8>, vector<64xi8>
  %v25 = arith.addi %base, %offp1920 : index
  %v24 = vector.load %src[%v25] : memref<?xi8>, vector<64xi8>
  %v27 = arith.addi %base, %offp1921 : index
  %v26 = vector.load %src[%v27] : memref<?xi8>, vector<64xi8>
  %v23 = arith.minui %v24, %v26 : vector<64xi8>
  %v20 = arith.minui %v21, %v23 : vector<64xi8>
  %v3 = arith.maxui %v4, %v20 : vector<64xi8>
  %v32 = arith.maxui %v6, %v8 : vector<64xi8>
  %v33 = arith.maxui %v9, %v11 : vector<64xi8>
  %v31 = arith.minui %v32, %v33 : vector<64xi8>
  %v36 = arith.maxui %v14, %v16 : vector<64xi8>
  %v37 = arith.maxui %v17, %v18 : vector<64xi8>
  %v35 = arith.minui %v36, %v37 : vector<64xi8>
  %v39 = arith.maxui %v21, %v23 : vector<64xi8>
  %v40 = arith.maxui %v24, %v26 : vector<64xi8>
  %v38 = arith.minui %v39, %v40 : vector<64xi8>
  %v34 = arith.minui %v35, %v38 : vector<64xi8>
  %v30 = arith.maxui %v31, %v34 : vector<64xi8>
  %v41 = arith.maxui %v35, %v38 : vector<64xi8>
  %v29 = arith.minui %v30, %v41 : vector<64xi8>
  %v43 = arith.maxui %v32, %v33 : vector<64xi8>
  %v45 = arith.maxui %v36, %v37 : vector<64xi8>
  %v46 = arith.maxui %v39, %v40 : vector<64xi8>
  %v44 = arith.minui %v45, %v46 : vector<64xi8>
  %v42 = arith.minui %v43, %v44 : vector<64xi8>
  %v28 = arith.minui %v29, %v42 : vector<64xi8>
  %v2 = arith.maxui %v3, %v28 : vector<64xi8>
  %v47 = arith.maxui %v29, %v42 : vector<64xi8>
  %v1 = arith.minui %v2, %v47 : vector<64xi8>
  vector.store %v1, %dst[%base] : memref<?xi8>, vector<64xi8>
  return
}

func.func @median_store_between(%src: memref<?xi8>, %dst: memref<?xi8>, %base: index) {
  %offm1921 = arith.constant -1921 : index
  %offm1920 = arith.constant -1920 : index
  %offm1919 = arith.constant -1919 : index
  %offm1 = arith.constant -1 : index
  %offp1 = arith.constant 1 : index
  %offp1919 = arith.constant 1919 : index
  %offp1920 = arith.constant 1920 : index
  %offp1921 = arith.constant 1921 : index
  %v7 = arith.addi %base, %offm1921 : index
  %v6 = vector.load %src[%v7] : memref<?xi8>, vector<64xi8>
  %v10 = arith.addi %base, %offm1920 : index
  %v9 = vector.load %src[%v10] : memref<?xi8>, vector<64xi8>
  %v12 = arith.addi %base, %offm1919 : index
  %v11 = vector.load %src[%v12] : memref<?xi8>, vector<64xi8>
  %v8 = arith.minui %v9, %v11 : vector<64xi8>
  %v5 = arith.minui %v6, %v8 : vector<64xi8>
  %v15 = arith.addi %base, %offm1 : index
  %v14 = vector.load %src[%v15] : memref<?xi8>, vector<64xi8>
  %v17 = vector.load %src[%base] : memref<?xi8>, vector<64xi8>
  %v19 = arith.addi %base, %offp1 : index
  %v18 = vector.load %src[%v19] : memref<?xi8>, vector<64xi8>
  %v16 = arith.minui %v17, %v18 : vector<64xi8>
  %v13 = arith.minui %v14, %v16 : vector<64xi8>
  %zero = arith.constant dense<0> : vector<64xi8>
  vector.store %zero, %src[%base] : memref<?xi8>, vector<64xi8>
  %v4 = arith.maxui %v5, %v13 : vector<64xi8>
  %v22 = arith.addi %base, %offp1919 : index
  %v21 = vector.load %src[%v22] : memref<?xi8>, vector<64xi8>
  %v25 = arith.addi %base, %offp1920 : index
  %v24 = vector.load %src[%v25] : memref<?xi8>, vector<64xi8>
  %v27 = arith.addi %base, %offp1921 : index
  %v26 = vector.load %src[%v27] : memref<?xi8>, vector<64xi8>
  %v23 = arith.minui %v24, %v26 : vector<64xi8>
  %v20 = arith.minui %v21, %v23 : vector<64xi8>
  %v3 = arith.maxui %v4, %v20 : vector<64xi8>
  %v32 = arith.maxui %v6, %v8 : vector<64xi8>
  %v33 = arith.maxui %v9, %v11 : vector<64xi8>
  %v31 = arith.minui %v32, %v33 : vector<64xi8>
  %v36 = arith.maxui %v14, %v16 : vector<64xi8>
  %v37 = arith.maxui %v17, %v18 : vector<64xi8>
  %v35 = arith.minui %v36, %v37 : vector<64xi8>
  %v39 = arith.maxui %v21, %v23 : vector<64xi8>
  %v40 = arith.maxui %v24, %v26 : vector<64xi8>
  %v38 = arith.minui %v39, %v40 : vector<64xi8>
  %v34 = arith.minui %v35, %v38 : vector<64xi8>
  %v30 = arith.maxui %v31, %v34 : vector<64xi8>
  %v41 = arith.maxui %v35, %v38 : vector<64xi8>
  %v29 = arith.minui %v30, %v41 : vector<64xi8>
  %v43 = arith.maxui %v32, %v33 : vector<64xi8>
  %v45 = arith.maxui %v36, %v37 : vector<64xi8>
  %v46 = arith.maxui %v39, %v40 : vector<64xi8>
  %v44 = arith.minui %v45, %v46 : vector<64xi8>
  %v42 = arith.minui %v43, %v44 : vector<64xi8>
  %v28 = arith.minui %v29, %v42 : vector<64xi8>
  %v2 = arith.maxui %v3, %v28 : vector<64xi8>
  %v47 = arith.maxui %v29, %v42 : vector<64xi8>
  %v1 = arith.minui %v2, %v47 : vector<64xi8>
  vector.store %v1, %dst[%base] : memref<?xi8>, vector<64xi8>
  return
}
