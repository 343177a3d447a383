// The same shifts as the Arm pseudocode defines them, written in `arith`:
// the reference of immediate-templates.test.

// a + ((b + 2^(n-1)) >> n), the sum in 64 bits.
func.func @rsra_s32_1(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %bw = arith.extsi %b : vector<4xi32> to vector<4xi64>
  %half = arith.constant dense<1> : vector<4xi64>
  %n = arith.constant dense<1> : vector<4xi64>
  %s = arith.addi %bw, %half : vector<4xi64>
  %q = arith.shrsi %s, %n : vector<4xi64>
  %qt = arith.trunci %q : vector<4xi64> to vector<4xi32>
  %r = arith.addi %a, %qt : vector<4xi32>
  return %r : vector<4xi32>
}

// a + ((b + 2^(n-1)) >> n), the sum in 64 bits.
func.func @rsra_s32_20(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %bw = arith.extsi %b : vector<4xi32> to vector<4xi64>
  %half = arith.constant dense<524288> : vector<4xi64>
  %n = arith.constant dense<20> : vector<4xi64>
  %s = arith.addi %bw, %half : vector<4xi64>
  %q = arith.shrsi %s, %n : vector<4xi64>
  %qt = arith.trunci %q : vector<4xi64> to vector<4xi32>
  %r = arith.addi %a, %qt : vector<4xi32>
  return %r : vector<4xi32>
}

// a + ((b + 2^(n-1)) >> n), the sum in 64 bits.
func.func @rsra_s32_32(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %bw = arith.extsi %b : vector<4xi32> to vector<4xi64>
  %half = arith.constant dense<2147483648> : vector<4xi64>
  %n = arith.constant dense<32> : vector<4xi64>
  %s = arith.addi %bw, %half : vector<4xi64>
  %q = arith.shrsi %s, %n : vector<4xi64>
  %qt = arith.trunci %q : vector<4xi64> to vector<4xi32>
  %r = arith.addi %a, %qt : vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shrn_u64_1(%a: vector<2xi64>) -> vector<2xi32> {
  %n = arith.constant dense<1> : vector<2xi64>
  %s = arith.shrui %a, %n : vector<2xi64>
  %r = arith.trunci %s : vector<2xi64> to vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shrn_u64_17(%a: vector<2xi64>) -> vector<2xi32> {
  %n = arith.constant dense<17> : vector<2xi64>
  %s = arith.shrui %a, %n : vector<2xi64>
  %r = arith.trunci %s : vector<2xi64> to vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shrn_u64_32(%a: vector<2xi64>) -> vector<2xi32> {
  %n = arith.constant dense<32> : vector<2xi64>
  %s = arith.shrui %a, %n : vector<2xi64>
  %r = arith.trunci %s : vector<2xi64> to vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shl_s64_0(%a: vector<2xi64>) -> vector<2xi64> {
  %n = arith.constant dense<0> : vector<2xi64>
  %r = arith.shli %a, %n : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @shl_s64_63(%a: vector<2xi64>) -> vector<2xi64> {
  %n = arith.constant dense<63> : vector<2xi64>
  %r = arith.shli %a, %n : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @neg_s16(%a: vector<8xi16>) -> vector<8xi16> {
  %z = arith.constant dense<0> : vector<8xi16>
  %r = arith.subi %z, %a : vector<8xi16>
  return %r : vector<8xi16>
}

func.func @not_u8(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.constant dense<-1> : vector<16xi8>
  %r = arith.xori %a, %m : vector<16xi8>
  return %r : vector<16xi8>
}

func.func @shr_s32_5(%a: vector<4xi32>) -> vector<4xi32> {
  %n = arith.constant dense<5> : vector<4xi32>
  %r = arith.shrsi %a, %n : vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shr_s32_32(%a: vector<4xi32>) -> vector<4xi32> {
  // A shift by the element width fills with the sign, as by 31.
  %n = arith.constant dense<31> : vector<4xi32>
  %r = arith.shrsi %a, %n : vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shr_u64_63(%a: vector<2xi64>) -> vector<2xi64> {
  %n = arith.constant dense<63> : vector<2xi64>
  %r = arith.shrui %a, %n : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @shr_u64_64(%a: vector<2xi64>) -> vector<2xi64> {
  // Every bit shifted out.
  %r = arith.constant dense<0> : vector<2xi64>
  return %r : vector<2xi64>
}

func.func @sra_u32_9(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %n = arith.constant dense<9> : vector<4xi32>
  %q = arith.shrui %b, %n : vector<4xi32>
  %r = arith.addi %a, %q : vector<4xi32>
  return %r : vector<4xi32>
}

func.func @sra_u32_32(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  // b shifted out entirely: a plus 0.
  %zero = arith.constant dense<0> : vector<4xi32>
  %r = arith.addi %a, %zero : vector<4xi32>
  return %r : vector<4xi32>
}

func.func @sra_s64_64(%a: vector<2xi64>, %b: vector<2xi64>) -> vector<2xi64> {
  %n = arith.constant dense<63> : vector<2xi64>
  %q = arith.shrsi %b, %n : vector<2xi64>
  %r = arith.addi %a, %q : vector<2xi64>
  return %r : vector<2xi64>
}
