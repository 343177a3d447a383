// Forms lower-to-autollvm{target=x86-avx512} rewrites into autollvm ops
// whose instructions need AVX-512 (512-bit registers, VNNI, BW): what
// Run/*/portable-expansion.test expands back with expand-autollvm and runs
// where those instructions do not exist.

func.func @dot_accumulate(%acc: vector<16xi32>, %a: vector<64xi8>, %b: vector<64xi8>) -> vector<16xi32> {
  %ea = arith.extui %a : vector<64xi8> to vector<64xi32>
  %eb = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ea, %eb : vector<64xi32>
  %p4 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p4, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}

func.func @saturating_add(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %wa = arith.extsi %a : vector<64xi8> to vector<64xi16>
  %wb = arith.extsi %b : vector<64xi8> to vector<64xi16>
  %s = arith.addi %wa, %wb : vector<64xi16>
  %lo = arith.constant dense<-128> : vector<64xi16>
  %hi = arith.constant dense<127> : vector<64xi16>
  %c1 = arith.maxsi %s, %lo : vector<64xi16>
  %c2 = arith.minsi %c1, %hi : vector<64xi16>
  %r = arith.trunci %c2 : vector<64xi16> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @high_product(%a: vector<32xi16>, %b: vector<32xi16>) -> vector<32xi16> {
  %wa = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %wb = arith.extsi %b : vector<32xi16> to vector<32xi32>
  %p = arith.muli %wa, %wb : vector<32xi32>
  %c16 = arith.constant dense<16> : vector<32xi32>
  %h = arith.shrsi %p, %c16 : vector<32xi32>
  %r = arith.trunci %h : vector<32xi32> to vector<32xi16>
  return %r : vector<32xi16>
}

func.func @rounding_average(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %wa = arith.extui %a : vector<64xi8> to vector<64xi16>
  %wb = arith.extui %b : vector<64xi8> to vector<64xi16>
  %one = arith.constant dense<1> : vector<64xi16>
  %s = arith.addi %wa, %wb : vector<64xi16>
  %s1 = arith.addi %s, %one : vector<64xi16>
  %h = arith.shrui %s1, %one : vector<64xi16>
  %r = arith.trunci %h : vector<64xi16> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @absolute_difference(%a: vector<64xi8>, %b: vector<64xi8>) -> vector<64xi8> {
  %mx = arith.maxui %a, %b : vector<64xi8>
  %mn = arith.minui %a, %b : vector<64xi8>
  %d = arith.subi %mx, %mn : vector<64xi8>
  return %d : vector<64xi8>
}

func.func @pairwise_sum(%a: vector<32xi16>) -> vector<16xi32> {
  %w = arith.extsi %a : vector<32xi16> to vector<32xi32>
  %w2 = vector.shape_cast %w : vector<32xi32> to vector<16x2xi32>
  %zero = arith.constant dense<0> : vector<16xi32>
  %s = vector.multi_reduction <add>, %w2, %zero [1] : vector<16x2xi32> to vector<16xi32>
  return %s : vector<16xi32>
}
