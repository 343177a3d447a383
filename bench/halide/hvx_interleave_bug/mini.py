"""The smallest pipeline on which Halide 21 computes wrong lanes for Hexagon
HVX (see README.md): f, a widening add of neighbouring bytes, computed at
root and vectorized; out, f narrowed, read at an offset. Writes the object,
header and assembly of `mini` into the directory given.

Usage: python mini.py OUT_DIR [OFFSET] [guard|bound]"""
import os
import sys

import halide as hl

out_dir = sys.argv[1]
offset = int(sys.argv[2]) if len(sys.argv) > 2 else 1
variant = sys.argv[3] if len(sys.argv) > 3 else ""
x = hl.Var("x")
inp = hl.ImageParam(hl.UInt(8), 1, "inp")
f, out = hl.Func("f"), hl.Func("out")
f[x] = hl.cast(hl.UInt(16), inp[x]) + hl.cast(hl.UInt(16), inp[x + 1])
out[x] = hl.cast(hl.UInt(8), f[x + offset] >> 1)
# guard: f's last vector predicated, not shifted inwards (the benchmark's workaround).
f.compute_root().vectorize(x, 128, hl.TailStrategy.GuardWithIf if variant == "guard" else hl.TailStrategy.Auto)
out.vectorize(x, 128)
if variant == "bound":
    # The extent known to be one vector: every access of f is aligned, and the output is right.
    out.bound(x, 0, 128)
target = hl.Target("hexagon-32-noos-hvx_128-hvx_v66-no_runtime")
stem = os.path.join(out_dir, "mini")
out.compile_to({hl.OutputFileType.object: stem + ".o", hl.OutputFileType.c_header: stem + ".h",
                hl.OutputFileType.assembly: stem + ".s"}, [inp], "mini", target)
