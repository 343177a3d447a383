// The same inserts written as `vector.insert_strided_slice`: the reference
// of immediate-inserts.test.
func.func @inserti128_0(%a: vector<4xi64>, %b: vector<2xi64>) -> vector<4xi64> {
  %r = vector.insert_strided_slice %b, %a {offsets = [0], strides = [1]} : vector<2xi64> into vector<4xi64>
  return %r : vector<4xi64>
}

func.func @inserti128_1(%a: vector<4xi64>, %b: vector<2xi64>) -> vector<4xi64> {
  %r = vector.insert_strided_slice %b, %a {offsets = [2], strides = [1]} : vector<2xi64> into vector<4xi64>
  return %r : vector<4xi64>
}
