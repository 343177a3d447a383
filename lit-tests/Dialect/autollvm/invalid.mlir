// RUN: %mlir_opt %load_hydride %s -split-input-file -verify-diagnostics

// A parameter value no member of the class implements.
func.func @bad_parameter() -> vector<4xi64> {
  // expected-error @+1 {{does not satisfy the constraint}}
  %0 = "autollvm.setzero_si"() { result_width = 320 : i32, result_elem_width = 256 : i32 } : () -> vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// A result type no member produces.
func.func @bad_type() -> vector<3xi64> {
  // expected-error @+1 {{does not satisfy the constraint}}
  %0 = "autollvm.setzero_si"() { result_width = 256 : i32, result_elem_width = 256 : i32 } : () -> vector<3xi64>
  return %0 : vector<3xi64>
}

// -----

// A missing parameter.
func.func @missing_parameter() -> vector<4xi64> {
  // expected-error @+1 {{attribute "result_elem_width" is expected but not provided}}
  %0 = "autollvm.setzero_si"() { result_width = 256 : i32 } : () -> vector<4xi64>
  return %0 : vector<4xi64>
}
