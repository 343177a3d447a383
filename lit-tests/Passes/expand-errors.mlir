// RUN: %mlir_opt %load_hydride %load_hydride_passes --pass-pipeline='builtin.module(expand-hydride-x86)' %s -verify-diagnostics

// An instruction whose semantics loop on the data (a population count as
// a loop while bits remain) has no expansion: the op is named, with why.
func.func @popcount(%arg0: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'hydride_x86.mm512_popcnt_epi32' op cannot be expanded: its semantics do not run on unknown arguments}}
  %0 = "hydride_x86.mm512_popcnt_epi32"(%arg0) : (vector<16xi32>) -> vector<16xi32>
  return %0 : vector<16xi32>
}
