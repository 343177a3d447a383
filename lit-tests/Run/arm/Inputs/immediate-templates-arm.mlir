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
