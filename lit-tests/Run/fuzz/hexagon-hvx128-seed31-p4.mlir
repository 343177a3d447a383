// REQUIRES: qemu-hexagon
// RUN: %fuzz --replay %s --target hexagon-hvx128
// Found by `scripts/fuzz --seed 31` (program 4) at hexagon-hvx128: mismatch: 995 of 1000 inputs differ
// Minimized from 13 to 5 ops. hydride computes the 4-way dot product at a whole register (the 32
// bytes repeated four times, the accumulator likewise) with vrmpybv_acc and takes the first 8 lanes,
// proved equal. Its LLVM IR was right (with the intrinsic replaced by its generic IR, every lane
// matched a C reference under qemu-hexagon), but llc 22's code for `shufflevector <32 x i8> %x, %x,
// <0..31, 0..31, 0..31, 0..31>` gave bytes 1..3 of the register x[0] instead of x[1..3] (stored and
// read back: 12 of 128 bytes wrong). A repeated value is now repeated as 32-bit words
// (`pieces::append_over_shuffled_leaves`), which llc gets right. Program 36 of the same seed is the
// mixed-sign form.
func.func @p4(%a0: vector<128xi8>, %a1: vector<128xi16>, %a2: vector<32xi8>, %a3: vector<8xi32>) -> vector<8xi32> {
  %v9 = arith.extsi %a2 : vector<32xi8> to vector<32xi32>
  %v10 = arith.extsi %a2 : vector<32xi8> to vector<32xi32>
  %v11 = arith.muli %v9, %v10 : vector<32xi32>
  %v12 = vector.shape_cast %v11 : vector<32xi32> to vector<8x4xi32>
  %v13 = vector.multi_reduction <add>, %v12, %a3 [1] : vector<8x4xi32> to vector<8xi32>
  return %v13 : vector<8xi32>
}
