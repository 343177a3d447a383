// REQUIRES: host-x86-avx2
// RUN: %fuzz --replay %s --target x86-avx2
// Found by `scripts/fuzz --seed 1` (program 3) at x86-avx2: crash: mlir-opt exit 1: <stdin>:21:3: remark: lower-to-autollvm searched 4 windows of this block at target x86-avx2: programs of one target intrinsic, or two instructions holding one (budget 8000 pairings), over the 244 instructions of the grammar the target has (124 of them intrinsics), after the offline 
// Minimized from 19 to 10 ops.
func.func @p3(%a0: vector<8xi8>, %a1: vector<32xi16>) -> vector<2xi16> {
  %v7 = arith.extsi %a1 : vector<32xi16> to vector<32xi32>
  %v8 = arith.extsi %a1 : vector<32xi16> to vector<32xi32>
  %v9 = arith.subi %v7, %v8 : vector<32xi32>
  %v10 = arith.constant dense<-32768> : vector<32xi32>
  %v11 = arith.maxsi %v9, %v10 : vector<32xi32>
  %v12 = arith.constant dense<32767> : vector<32xi32>
  %v13 = arith.minsi %v11, %v12 : vector<32xi32>
  %v14 = arith.trunci %v13 : vector<32xi32> to vector<32xi16>
  %v15 = vector.reduction <maxui>, %v14 : vector<32xi16> into i16
  %v16 = vector.broadcast %v15 : i16 to vector<2xi16>
  return %v16 : vector<2xi16>
}
