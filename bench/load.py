"""What loading hydride costs stock mlir-opt, and what a warm-memo
lower-to-autollvm of each suite kernel takes, as whole mlir-opt runs
(process start included), timed in one run against stock mlir-opt on the
same files:

- load overhead: `mlir-opt F` with and without `--load-dialect-plugin` and
  `--load-pass-plugin` for a file of func, arith and vector ops (a suite
  kernel's), runs interleaved; the overhead is the difference of medians;
- warm lowering: per suite kernel, `lower-to-autollvm` once into a fresh
  memo (not timed), then the median of runs with that memo; geomean and
  max over the suite, beside stock mlir-opt's parse-and-print of the same file.

Writes results/load-<target>.csv and .md and prints the table.
Usage: python3 bench/load.py [--runs N] [--target T] [--only NAME,...]
"""

import argparse
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
PLUGIN = os.path.join(ROOT, "target", "release", "libhydride.so")
LOAD = [f"--load-dialect-plugin={PLUGIN}", f"--load-pass-plugin={PLUGIN}"]


def timed(args):
    t = time.perf_counter()
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"load: {' '.join(args)} failed:\n{p.stderr[-2000:]}")
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11, help="timed runs per measurement (median)")
    ap.add_argument("--target", default="native", help="lower-to-autollvm's target (native, x86-avx512, x86-avx2)")
    ap.add_argument("--only", help="comma-separated kernel names")
    args = ap.parse_args()
    kernels = suite.all_kernels()
    if args.only:
        wanted = set(args.only.split(","))
        kernels = [k for k in kernels if k.name in wanted]
    work = tempfile.mkdtemp(prefix="hydride-load-")
    files = {}
    for k in kernels:
        files[k.name] = os.path.join(work, f"{k.name}.mlir")
        with open(files[k.name], "w") as f:
            f.write(k.mlir)

    # Load overhead, on the first kernel's file: stock and plugin runs interleaved.
    probe = files[kernels[0].name]
    stock, loaded = [], []
    for _ in range(args.runs):
        stock.append(timed([MLIR_OPT, probe, "-o", os.devnull]))
        loaded.append(timed([MLIR_OPT, *LOAD, probe, "-o", os.devnull]))
    overhead_ms = (statistics.median(loaded) - statistics.median(stock)) * 1e3

    rows = []
    for i, k in enumerate(kernels):
        cache = os.path.join(work, f"cache-{k.name}")
        pipeline = f"--pass-pipeline=builtin.module(lower-to-autollvm{{target={args.target} cache-dir={cache}}})"
        lower = [MLIR_OPT, *LOAD, files[k.name], pipeline, "-o", os.devnull]
        print(f"[{i + 1}/{len(kernels)}] {k.name}", file=sys.stderr, flush=True)
        timed(lower)  # fills the memo
        parse, warm = [], []
        for _ in range(args.runs):
            parse.append(timed([MLIR_OPT, files[k.name], "-o", os.devnull]))
            warm.append(timed(lower))
        rows.append({"kernel": k.name, "stock_parse_ms": statistics.median(parse) * 1e3,
                     "warm_lower_ms": statistics.median(warm) * 1e3})

    geo = math.exp(statistics.fmean(math.log(r["warm_lower_ms"]) for r in rows))
    geo_stock = math.exp(statistics.fmean(math.log(r["stock_parse_ms"]) for r in rows))
    worst = max(rows, key=lambda r: r["warm_lower_ms"])
    os.makedirs(os.path.join(ROOT, "results"), exist_ok=True)
    base = os.path.join(ROOT, "results", f"load-{args.target}")
    with open(base + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["kernel", "stock_parse_ms", "warm_lower_ms"])
        w.writeheader()
        w.writerows(rows)
    lines = [
        f"Median of {args.runs} runs each, target {args.target}, whole mlir-opt processes.",
        "",
        f"- stock mlir-opt on `{kernels[0].name}`: {statistics.median(stock) * 1e3:.1f} ms; "
        f"with libhydride.so loaded: {statistics.median(loaded) * 1e3:.1f} ms; **load overhead {overhead_ms:.1f} ms**",
        f"- warm-memo lower-to-autollvm over {len(rows)} kernels: **geomean {geo:.1f} ms**, "
        f"max {worst['warm_lower_ms']:.1f} ms ({worst['kernel']}); stock parse-and-print geomean {geo_stock:.1f} ms",
        "",
        "| kernel | stock parse (ms) | warm lower-to-autollvm (ms) |",
        "|---|---|---|",
    ]
    lines += [f"| {r['kernel']} | {r['stock_parse_ms']:.1f} | {r['warm_lower_ms']:.1f} |" for r in rows]
    with open(base + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
