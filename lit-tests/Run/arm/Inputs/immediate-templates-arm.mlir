// NEON shifts by an immediate of more than 16 values as target ops, both
// ends of the range included: lowered by convert-hydride-arm-to-llvm in
// immediate-templates.test.

func.func @rsra_s32_1(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vrsraq_n_s32"(%a, %b) {n = 1 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @rsra_s32_20(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vrsraq_n_s32"(%a, %b) {n = 20 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @rsra_s32_32(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vrsraq_n_s32"(%a, %b) {n = 32 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shrn_u64_1(%a: vector<2xi64>) -> vector<2xi32> {
  %r = "hydride_arm.vshrn_n_u64"(%a) {n = 1 : i32} : (vector<2xi64>) -> vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shrn_u64_17(%a: vector<2xi64>) -> vector<2xi32> {
  %r = "hydride_arm.vshrn_n_u64"(%a) {n = 17 : i32} : (vector<2xi64>) -> vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shrn_u64_32(%a: vector<2xi64>) -> vector<2xi32> {
  %r = "hydride_arm.vshrn_n_u64"(%a) {n = 32 : i32} : (vector<2xi64>) -> vector<2xi32>
  return %r : vector<2xi32>
}

func.func @shl_s64_0(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_arm.vshlq_n_s64"(%a) {n = 0 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

func.func @shl_s64_63(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_arm.vshlq_n_s64"(%a) {n = 63 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

// One-operand ops whose IR is one generic instruction with a constant
// (`sub` from 0, `xor` with all ones): clang's IR, not a binary op.
func.func @neg_s16(%a: vector<8xi16>) -> vector<8xi16> {
  %r = "hydride_arm.vnegq_s16"(%a) : (vector<8xi16>) -> vector<8xi16>
  return %r : vector<8xi16>
}

func.func @not_u8(%a: vector<16xi8>) -> vector<16xi8> {
  %r = "hydride_arm.vmvnq_u8"(%a) : (vector<16xi8>) -> vector<16xi8>
  return %r : vector<16xi8>
}

func.func @shr_s32_5(%a: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vshrq_n_s32"(%a) {n = 5 : i32} : (vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shr_s32_32(%a: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vshrq_n_s32"(%a) {n = 32 : i32} : (vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @shr_u64_63(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_arm.vshrq_n_u64"(%a) {n = 63 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

func.func @shr_u64_64(%a: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_arm.vshrq_n_u64"(%a) {n = 64 : i32} : (vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}

func.func @sra_u32_9(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vsraq_n_u32"(%a, %b) {n = 9 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @sra_u32_32(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = "hydride_arm.vsraq_n_u32"(%a, %b) {n = 32 : i32} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  return %r : vector<4xi32>
}

func.func @sra_s64_64(%a: vector<2xi64>, %b: vector<2xi64>) -> vector<2xi64> {
  %r = "hydride_arm.vsraq_n_s64"(%a, %b) {n = 64 : i32} : (vector<2xi64>, vector<2xi64>) -> vector<2xi64>
  return %r : vector<2xi64>
}
