"""Writes the kernel table of the differential harness (differential_main.c)
for the functions an LLVM IR module defines: for each, the sizes of its
arguments and result, and the two compiled paths to compare, NAME_mem (LLVM's
own lowering) and hydride_NAME_mem (hydride's), both made by mem_wrappers.py.

Usage: python3 differential.py < kernels.ll > table.c
"""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from mem_wrappers import param_type, split_params  # noqa: E402


def type_bytes(t):
    """`<16 x i8>` -> 16, `i32` -> 4; None for a type the harness does not fill."""
    m = re.fullmatch(r"<(\d+) x i(\d+)>", t)
    if m:
        bits = int(m.group(1)) * int(m.group(2))
    else:
        m = re.fullmatch(r"i(\d+)", t)
        if not m:
            return None
        bits = int(m.group(1))
    return (bits + 7) // 8


def main():
    kernels = []
    for m in re.finditer(r"^define (?:[a-z_]+ )*(<[^>]*>|\S+) @([A-Za-z0-9_.]+)\(([^)]*)\)", sys.stdin.read(), flags=re.M):
        ret, name, params = m.group(1), m.group(2), split_params(m.group(3))
        sizes = [type_bytes(param_type(p)) for p in params]
        result = type_bytes(ret)
        if result is None or None in sizes:
            sys.exit(f"differential.py: {name} has a type the harness cannot fill ({ret}, {params})")
        kernels.append((name, sizes, result))
    if not kernels:
        sys.exit("differential.py: the module defines no function")
    out = ['#include "differential.h"']
    for name, _, _ in kernels:
        out.append(f"kernel_fn {name}_mem, hydride_{name}_mem;")
    out.append("const struct kernel KERNELS[] = {")
    for name, sizes, result in kernels:
        size_list = ", ".join(str(s) for s in sizes) or "0"
        out.append(f'  {{"{name}", hydride_{name}_mem, {name}_mem, {len(sizes)}, {{{size_list}}}, {result}}},')
    out.append("};")
    out.append(f"const int N_KERNELS = {len(kernels)};")
    print("\n".join(out))


if __name__ == "__main__":
    main()
