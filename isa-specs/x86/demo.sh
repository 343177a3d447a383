#!/usr/bin/env bash
# The x86 part of scripts/demo, run from the repository's root after set-up:
# parse the fixture guide (our own entries in Intel's XML schema, two of
# them deliberately broken), validate every intrinsic this CPU executes (the
# fixtures have no hardware record: what it cannot execute is reported
# unvalidated), print the report and one semantics; then a generated op in
# stock mlir-opt, and a u8×s8 dot product lowered by synthesis.
set -euo pipefail
./target/release/hydride isa x86 --isa-data dialectgen/tests/fixtures/x86 --no-corrections \
  --validate --no-record --verbose --report-json results/example-report.json
./target/release/hydride isa x86 --isa-data dialectgen/tests/fixtures/x86 --no-corrections \
  --filter _mm512_dpbusd_epi32 --print
# The generated dialects inside stock mlir-opt, through the plugin.
cat <<'MLIR' | /usr/lib/llvm-22/bin/mlir-opt --load-dialect-plugin=target/release/libhydride.so
func.func @saturating_add(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %0 = "hydride_x86.mm_adds_epi16"(%a, %b) : (vector<8xi16>, vector<8xi16>) -> vector<8xi16>
  return %0 : vector<8xi16>
}
MLIR
# Synthesis: a u8×s8 dot product with accumulate, written in vector/arith,
# lowered through the autollvm and hydride_x86 dialects: at target=native
# (the default; a host without AVX-512 VNNI keeps LLVM's lowering), then
# cross-compiled for x86-avx512, where it becomes one vpdpbusd.
echo "== lower-to-autollvm: dot product → autollvm → x86 → LLVM → assembly"
P=target/release/libhydride.so
cat <<'MLIR' > results/demo-dot.mlir
func.func @dot(%a: vector<64xi8>, %b: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<64xi8> to vector<64xi32>
  %be = arith.extsi %b : vector<64xi8> to vector<64xi32>
  %p = arith.muli %ae, %be : vector<64xi32>
  %p2 = vector.shape_cast %p : vector<64xi32> to vector<16x4xi32>
  %s = vector.multi_reduction <add>, %p2, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %s : vector<16xi32>
}
MLIR
mlir-opt --load-dialect-plugin=$P --load-pass-plugin=$P \
  --pass-pipeline='builtin.module(lower-to-autollvm{remarks=true},convert-autollvm-to-x86)' results/demo-dot.mlir
echo "== the same, cross-compiled for target=x86-avx512 (Zen 4)"
mlir-opt --load-dialect-plugin=$P --load-pass-plugin=$P \
  --pass-pipeline='builtin.module(lower-to-autollvm{target=x86-avx512},convert-autollvm-to-x86,convert-hydride-x86-to-llvm)' results/demo-dot.mlir |
  mlir-opt --lower-vector-multi-reduction --convert-vector-to-llvm --convert-arith-to-llvm --convert-ub-to-llvm \
    --convert-func-to-llvm --reconcile-unrealized-casts |
  mlir-translate --mlir-to-llvmir | llc -O3 -mcpu=znver4 | grep -E '^\s+v|^dot:'
