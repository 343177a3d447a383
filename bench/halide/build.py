"""Compiles the suite's Halide pipelines ahead of time for one target: per
kernel an object file, its C header and its assembly, plus one Halide
runtime object for the target; writes manifest.json describing each
function's buffers in the suite's terms (see args.py) and its compile time.
A kernel whose pipeline fails to build is recorded with its error; the
others are still built.

Runs with the Python that has Halide (scripts/setup puts it in .venv):
  .venv/bin/python bench/halide/build.py --target x86-avx2 --out DIR [--only K,...]
  .venv/bin/python bench/halide/build.py --halide-target STR --out DIR
`--vector-bits N` builds the kernels at the suite's width N (the cross
targets' benchmark sets it to the target's: 128 on NEON, 1024 on HVX).
"""

import argparse
import importlib.metadata
import json
import multiprocessing
import os
import sys
import time
import traceback

import halide as hl

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import suite  # noqa: E402
from pipelines import pipeline_for  # noqa: E402
from targets import TARGETS  # noqa: E402


def build_kernel(kernel, target, out_dir):
    pipeline = pipeline_for(kernel, target)
    function = f"halide_{kernel.name}"
    stem = os.path.join(out_dir, kernel.name)
    params = [param for param, _ in pipeline.inputs]
    outputs = hl.Pipeline([func for func, _ in pipeline.outputs])
    start = time.perf_counter()
    outputs.compile_to({hl.OutputFileType.object: stem + ".halide.o", hl.OutputFileType.c_header: stem + ".halide.h"},
                       params, function, target.with_feature(hl.TargetFeature.NoRuntime))
    seconds = time.perf_counter() - start
    outputs.compile_to({hl.OutputFileType.assembly: stem + ".halide.s"}, params, function,
                       target.with_feature(hl.TargetFeature.NoRuntime))
    return {"function": function, "object": stem + ".halide.o", "header": stem + ".halide.h", "asm": stem + ".halide.s",
            "compile_s": seconds,
            "args": [arg.describe() for _, arg in pipeline.inputs] + [dict(arg.describe(), output=True) for _, arg in pipeline.outputs]}


def build_or_report(kernel, target, out_dir):
    """`build_kernel`, or the error of a pipeline that does not build (reported, not fatal to the others)."""
    try:
        return build_kernel(kernel, target, out_dir)
    except Exception as e:
        if os.environ.get("HYDRIDE_BENCH_TRACEBACK"):
            traceback.print_exc()
        return {"error": f"{type(e).__name__}: {e}".strip()[-2000:]}


# The kernels, Halide target and output directory of this run, for `build_one`.
_BUILD = None


def build_one(i):
    kernels, target, out_dir = _BUILD
    return build_or_report(kernels[i], target, out_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--target", choices=sorted(TARGETS), help="a benchmark target")
    which.add_argument("--halide-target", help="a Halide target string (for the host's own x86 target)")
    ap.add_argument("--out", required=True, help="directory for objects, headers, assembly and manifest.json")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--jobs", type=int, default=1,
                    help="kernels compiled at once (default 1: each kernel's compile time is a figure)")
    ap.add_argument("--vector-bits", type=int, default=None,
                    help="the suite's vector width, which sets the kernels' shapes (default: the suite's)")
    a = ap.parse_args()
    if a.vector_bits:
        suite.VECTOR_BITS = a.vector_bits
    target = hl.Target(TARGETS[a.target].halide if a.target else a.halide_target)
    os.makedirs(a.out, exist_ok=True)
    kernels = suite.all_kernels()
    if a.only:
        kernels = [k for k in kernels if k.name in a.only.split(",")]
    manifest = {"halide": importlib.metadata.version("halide"), "target": str(target),
                "runtime": None, "kernels": {}}
    if target.arch == hl.TargetArch.X86 or target.arch == hl.TargetArch.ARM:
        runtime = os.path.join(a.out, "halide_runtime.o")
        hl.compile_standalone_runtime(runtime, target)
        manifest["runtime"] = runtime
    global _BUILD
    _BUILD = (kernels, target, a.out)
    if a.jobs > 1:
        # Forked workers inherit the kernels and the target; only indices and entries cross.
        with multiprocessing.get_context("fork").Pool(a.jobs) as pool:
            entries = pool.map(build_one, range(len(kernels)), chunksize=1)
    else:
        entries = map(build_one, range(len(kernels)))
    for i, (kernel, entry) in enumerate(zip(kernels, entries)):
        if "error" in entry:
            print(f"halide [{i + 1}/{len(kernels)}] {kernel.name}: FAILED {entry['error']}", file=sys.stderr, flush=True)
        else:
            print(f"halide [{i + 1}/{len(kernels)}] {kernel.name}: {entry['compile_s']:.2f} s", file=sys.stderr, flush=True)
        manifest["kernels"][kernel.name] = entry
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
