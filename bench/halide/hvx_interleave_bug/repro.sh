#!/usr/bin/env bash
# Builds mini.py's pipeline and mini.c for Hexagon and runs them under
# qemu-hexagon (README.md). Usage: bench/halide/hvx_interleave_bug/repro.sh [OFFSET [guard|bound]]
# Exit status: 0 if every lane is right, 1 if some differ.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
offset="${1:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/.venv/bin/python" "$here/mini.py" "$work" "$offset" "${2:-}"
include="$("$root/.venv/bin/python" -c 'import halide, os; print(os.path.join(os.path.dirname(halide.__file__), "include"))')"
fs="$root/bench/freestanding"
clang-22 --target=hexagon -mcpu=hexagonv66 -mhvx -mhvx-length=128b -ffreestanding -isystem "$fs" -I"$include" -O2 \
  -DOFFSET="$offset" -o "$work/mini" "$here/mini.c" "$work/mini.o" "$fs/runtime.c" "$fs/division.c" "$fs/halide.c" \
  -static -fuse-ld=lld -nostdlib
qemu-hexagon -cpu v67 "$work/mini"
