module {
  func.func @dot_u8s8_acc(%arg0: vector<64xi8>, %arg1: vector<64xi8>, %arg2: vector<16xi32>) -> vector<16xi32> {
    %0 = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%arg2, %arg0, %arg1) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
    return %0 : vector<16xi32>
  }
  func.func @madd_i16(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<16xi32> {
    %0 = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%arg0, %arg1) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
    return %0 : vector<16xi32>
  }
  func.func @adds_i16_clamp(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<32xi16> {
    %0 = llvm.call_intrinsic "llvm.sadd.sat.v32i16"(%arg0, %arg1) : (vector<32xi16>, vector<32xi16>) -> vector<32xi16>
    return %0 : vector<32xi16>
  }
  func.func @subs_u8(%arg0: vector<64xi8>, %arg1: vector<64xi8>) -> vector<64xi8> {
    %0 = llvm.call_intrinsic "llvm.usub.sat.v64i8"(%arg0, %arg1) : (vector<64xi8>, vector<64xi8>) -> vector<64xi8>
    return %0 : vector<64xi8>
  }
  func.func @avg_u8(%arg0: vector<64xi8>, %arg1: vector<64xi8>) -> vector<64xi8> {
    %0 = llvm.call_intrinsic "llvm.x86.avx512.pavg.b.512"(%arg0, %arg1) : (vector<64xi8>, vector<64xi8>) -> vector<64xi8>
    return %0 : vector<64xi8>
  }
  func.func @mulhi_i16(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<32xi16> {
    %0 = llvm.call_intrinsic "llvm.x86.avx512.pmulh.w.512"(%arg0, %arg1) : (vector<32xi16>, vector<32xi16>) -> vector<32xi16>
    return %0 : vector<32xi16>
  }
  func.func @absdiff_u8(%arg0: vector<64xi8>, %arg1: vector<64xi8>) -> vector<64xi8> {
    %0 = arith.maxui %arg0, %arg1 : vector<64xi8>
    %1 = arith.minui %arg0, %arg1 : vector<64xi8>
    %2 = arith.subi %0, %1 : vector<64xi8>
    return %2 : vector<64xi8>
  }
  func.func @clamp_i16(%arg0: vector<32xi16>) -> vector<32xi16> {
    %cst = arith.constant dense<-100> : vector<32xi16>
    %cst_0 = arith.constant dense<100> : vector<32xi16>
    %0 = arith.maxsi %arg0, %cst : vector<32xi16>
    %1 = arith.minsi %0, %cst_0 : vector<32xi16>
    return %1 : vector<32xi16>
  }
  func.func @packus_i16(%arg0: vector<32xi16>) -> vector<32xi8> {
    %cst = arith.constant dense<0> : vector<32xi16>
    %cst_0 = arith.constant dense<255> : vector<32xi16>
    %0 = arith.maxsi %arg0, %cst : vector<32xi16>
    %1 = arith.minsi %0, %cst_0 : vector<32xi16>
    %2 = arith.trunci %1 : vector<32xi16> to vector<32xi8>
    return %2 : vector<32xi8>
  }
  func.func @interleave_i8(%arg0: vector<32xi8>, %arg1: vector<32xi8>) -> vector<64xi8> {
    %cst = arith.constant dense<1> : vector<32xi8>
    %0 = arith.addi %arg0, %cst : vector<32xi8>
    %1 = vector.interleave %0, %arg1 : vector<32xi8> -> vector<64xi8>
    return %1 : vector<64xi8>
  }
  func.func @negative_adds_off_by_one(%arg0: vector<32xi16>, %arg1: vector<32xi16>) -> vector<32xi16> {
    %cst = arith.constant dense<-32767> : vector<32xi32>
    %cst_0 = arith.constant dense<32767> : vector<32xi32>
    %0 = arith.extsi %arg0 : vector<32xi16> to vector<32xi32>
    %1 = arith.extsi %arg1 : vector<32xi16> to vector<32xi32>
    %2 = arith.addi %0, %1 : vector<32xi32>
    %3 = arith.maxsi %2, %cst : vector<32xi32>
    %4 = arith.minsi %3, %cst_0 : vector<32xi32>
    %5 = arith.trunci %4 : vector<32xi32> to vector<32xi16>
    return %5 : vector<32xi16>
  }
}

