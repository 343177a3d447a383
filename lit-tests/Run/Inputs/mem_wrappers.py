"""Appends to an LLVM IR module, for each function it defines, a wrapper
`NAME_mem(ptr args, ptr result)` that loads every argument from memory
(`args` is an array of pointers), calls NAME and stores the result.

Vectors cross the C <-> IR boundary through memory: passed by value, a
512-bit vector travels in memory under the C ABI but in two 256-bit registers
in LLVM IR on a machine without 512-bit vector registers, so by-value calls
compare garbage there.

Usage: python3 mem_wrappers.py < in.ll > out.ll
"""
import re
import sys


def split_params(text):
    """Top-level comma-separated parameters (vector types hold no commas)."""
    return [p.strip() for p in text.split(",") if p.strip()]


def param_type(param):
    """`<64 x i8> noundef %0` -> `<64 x i8>`."""
    m = re.match(r"(<[^>]*>|\S+)", param)
    return m.group(1)


def main():
    ir = sys.stdin.read()
    out = [ir]
    for m in re.finditer(r"^define (?:[a-z_]+ )*(<[^>]*>|\S+) @([A-Za-z0-9_.]+)\(([^)]*)\)", ir, flags=re.M):
        ret, name, params = m.group(1), m.group(2), split_params(m.group(3))
        body = [f"define void @{name}_mem(ptr %args, ptr %result) {{"]
        call_args = []
        for i, p in enumerate(params):
            t = param_type(p)
            body.append(f"  %pp{i} = getelementptr ptr, ptr %args, i64 {i}")
            body.append(f"  %p{i} = load ptr, ptr %pp{i}, align 8")
            body.append(f"  %a{i} = load {t}, ptr %p{i}, align 1")
            call_args.append(f"{t} %a{i}")
        if ret == "void":
            body.append(f"  call void @{name}({', '.join(call_args)})")
        else:
            body.append(f"  %r = call {ret} @{name}({', '.join(call_args)})")
            body.append(f"  store {ret} %r, ptr %result, align 1")
        body.append("  ret void")
        body.append("}")
        out.append("\n".join(body) + "\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
