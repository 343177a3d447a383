// Lane inserts by an immediate as target ops: lowered by
// convert-hydride-x86-to-llvm in immediate-inserts.test.
func.func @inserti128_0(%a: vector<4xi64>, %b: vector<2xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_inserti128_si256"(%a, %b) {imm8 = 0 : i32} : (vector<4xi64>, vector<2xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}

func.func @inserti128_1(%a: vector<4xi64>, %b: vector<2xi64>) -> vector<4xi64> {
  %r = "hydride_x86.mm256_inserti128_si256"(%a, %b) {imm8 = 1 : i32} : (vector<4xi64>, vector<2xi64>) -> vector<4xi64>
  return %r : vector<4xi64>
}
