"""Runs the benchmark suite (bench/suite.py) through LLVM 22's own lowering
and through hydride, both compiled for the same CPU: correctness against the
scalar reference always; with timing, compile times (cold and warm memo),
hot-loop instructions, llvm-mca cycles per iteration and native run time.

The target is `native` by default: hydride's `target=native` (what this host
executes, less HYDRIDE_WITHHOLD_FEATURES) and `-march=native` less the same
features for both paths. `--target x86-avx512` (Zen 4) or `--target x86-avx2`
(x86-64-v3) compile for that CPU on any host; their binaries run only where
the host has the features (checked before starting them), else execution is
skipped and says which features are missing.

Usage: python3 bench/run.py [--check] [--quick] [--runs N] [--only NAME,...] [--target T] [--out DIR]
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = "/usr/lib/llvm-22/bin"
PLUGIN = os.path.join(ROOT, "target", "release", "libhydride.so")
UPSTREAM = ["--lower-vector-multi-reduction", "--convert-vector-to-llvm", "--convert-scf-to-cf",
            "--convert-cf-to-llvm", "--expand-strided-metadata", "--finalize-memref-to-llvm",
            "--convert-arith-to-llvm", "--convert-index-to-llvm", "--convert-ub-to-llvm",
            "--convert-func-to-llvm", "--reconcile-unrealized-casts"]
HYDRIDE = os.path.join(ROOT, "target", "release", "hydride")

# Named targets: the CPU both paths are compiled for, and the /proc/cpuinfo
# flags that CPU's code may use (checked before a binary is started).
NAMED = {
    "x86-avx512": ("znver4", ["avx2", "bmi1", "bmi2", "fma", "f16c", "movbe", "avx512f", "avx512bw", "avx512dq",
                              "avx512vl", "avx512cd", "avx512_vnni", "avx512vbmi", "avx512_vbmi2", "avx512_bitalg",
                              "avx512_vpopcntdq", "avx512ifma", "avx512_bf16", "gfni", "vaes", "vpclmulqdq"]),
    "x86-avx2": ("x86-64-v3", ["avx2", "bmi1", "bmi2", "fma", "f16c", "movbe", "abm"]),
}
# Host flags worth recording in results: the vector and bit-manipulation extensions.
RECORDED = re.compile(r"^(sse.*|ssse3|pni|avx.*|fma|f16c|bmi.*|gfni|vaes|vpclmulqdq|sha_ni)$")


class Target:
    """What both paths are compiled for, and whether this host runs it."""

    def __init__(self, name):
        host = json.loads(subprocess.run([HYDRIDE, "host", "--json"], check=True, capture_output=True, text=True).stdout)
        self.host = host
        features = set(host["features"])
        if name == "native":
            self.pass_target = "native"
            self.label = host["x86_target"]
            self.clang = host["clang_flags"]
            self.llc = host["llc_flags"]
            version = subprocess.run([f"{LLVM}/llc", "--version"], capture_output=True, text=True).stdout
            m = re.search(r"Host CPU:\s*(\S+)", version)
            self.mca_cpu = m.group(1) if m else "native"
            self.lacking = []
        else:
            cpu, needs = NAMED[name]
            self.pass_target = name
            self.label = name
            self.clang = [f"-march={cpu}"]
            self.llc = [f"-mcpu={cpu}"]
            self.mca_cpu = cpu
            self.lacking = [f for f in needs if f not in features]
        self.features = " ".join(sorted(f for f in features if RECORDED.match(f)))


class Failure(Exception):
    pass


def run(args, stdin=None, cwd=None):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        raise Failure(f"{' '.join(args[:3])} …: exit {p.returncode}\n{p.stderr[-4000:]}")
    return p.stdout


def hydride_lower(mlir, cache, target):
    pipeline = (f"builtin.module(lower-to-autollvm{{target={target.pass_target} cache-dir={cache}}},"
                "convert-autollvm-to-x86,convert-hydride-x86-to-llvm)")
    return run([f"{LLVM}/mlir-opt", f"--load-dialect-plugin={PLUGIN}", f"--load-pass-plugin={PLUGIN}",
                f"--pass-pipeline={pipeline}"], mlir)


def to_llvm_ir(mlir, prefix=""):
    ll = run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], run([f"{LLVM}/mlir-opt", *UPSTREAM], mlir))
    if prefix:
        ll = re.sub(r"^define (.*?) @([A-Za-z0-9_]+)\(", lambda m: f"define {m.group(1)} @{prefix}{m.group(2)}(", ll, flags=re.M)
    return ll


def hot_loop(asm):
    """The instructions of the innermost loop: the last block that branches back to itself."""
    blocks, current, label = {}, [], None
    best = None
    for line in asm.splitlines():
        m = re.match(r"^(\.LBB\w+):", line)
        if m:
            label, current = m.group(1), []
            blocks[label] = current
            continue
        t = line.strip()
        if not t or t.startswith((".", "#")) or label is None:
            continue
        current.append(t)
        parts = t.split()
        if parts[0].startswith("j") and len(parts) > 1 and parts[1] == label:
            best = list(current)
    return best or []


def mca_cycles(loop, cpu):
    if not loop:
        return float("nan")
    text = "\n".join(loop) + "\n"
    out = run([f"{LLVM}/llvm-mca", f"-mcpu={cpu}", "-iterations=100"], text)
    m = re.search(r"Total Cycles:\s+(\d+)", out)
    return int(m.group(1)) / 100 if m else float("nan")


def harness(k, reps):
    """C: reference, both paths, compare, time."""
    decl = ", ".join("void *, void *, long, long, long" for _ in k.params)
    args = lambda suffix: ", ".join(f"MR({a}{suffix if a in k.outputs else ''}, {n})" for a, _, n in k.params)
    ref_args = ", ".join(f"{a}{'_ref' if a in k.outputs else ''}" for a, _, _ in k.params)
    c = ["#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>", "#include <time.h>",
         "#define MR(p, n) (void *)(p), (void *)(p), 0L, (long)(n), 1L",
         f"void {k.name}({decl});", f"void hydride_{k.name}({decl});", k.c_reference,
         "static uint64_t state = 0x9e3779b97f4a7c15ull;",
         "static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }",
         "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }",
         "static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }",
         "int main(void) {"]
    for a, bits, n in k.params:
        t = suite.C_TYPE[bits]
        names = [a + s for s in ("_ref", "_l", "_h")] if a in k.outputs else [a]
        for nm in names:
            c.append(f"  {t} *{nm} = aligned_alloc(64, ({n} * sizeof({t}) + 63) / 64 * 64); memset({nm}, 0, {n} * sizeof({t}));")
        if a not in k.outputs:
            c.append(f"  for (long i = 0; i < {n}; ++i) {a}[i] = ({t})next();")
    c.append(f"  ref_{k.name}({ref_args});")
    c.append(f"  {k.name}({args('_l')});")
    c.append(f"  hydride_{k.name}({args('_h')});")
    checks = []
    for a, bits, n in k.params:
        if a in k.outputs:
            size = f"{n} * sizeof({suite.C_TYPE[bits]})"
            checks.append(f"memcmp({a}_ref, {a}_l, {size}) == 0")
            checks.append(f"memcmp({a}_ref, {a}_h, {size}) == 0")
    c.append(f"  int llvm_ok = {checks[0]}, hydride_ok = {checks[1]};")
    c.append(f"  enum {{ REPS = {reps} }}; double tl[REPS], th[REPS];")
    # Calls per timed run: enough for about 2 ms, so short kernels are not timer noise.
    c.append(f"  double c0 = now(); {k.name}({args('_l')}); double once = now() - c0;")
    c.append("  long inner = once > 2e6 ? 1 : (long)(2e6 / (once + 1)) + 1;")
    c.append("  for (int r = 0; r < REPS; ++r) {")
    c.append(f"    double t0 = now(); for (long i = 0; i < inner; ++i) {k.name}({args('_l')}); double t1 = now();")
    c.append(f"    for (long i = 0; i < inner; ++i) hydride_{k.name}({args('_h')}); double t2 = now();")
    c.append("    tl[r] = (t1 - t0) / inner; th[r] = (t2 - t1) / inner;")
    c.append("  }")
    c.append("  qsort(tl, REPS, sizeof(double), cmp); qsort(th, REPS, sizeof(double), cmp);")
    c.append('  printf("%d %d %.0f %.0f\\n", llvm_ok, hydride_ok, tl[REPS / 2], th[REPS / 2]);')
    c.append("  return !(llvm_ok && hydride_ok);")
    c.append("}")
    return "\n".join(c) + "\n"


def measure(k, work, runs, timing, target):
    src = os.path.join(work, f"{k.name}.mlir")
    with open(src, "w") as f:
        f.write(k.mlir)
    cold, warm = [], []
    lowered = None
    for r in range(runs if timing else 1):
        # Timing: a fresh memo per run (cold). Correctness only: one memo for the suite.
        cache = os.path.join(work, f"cache-{k.name}-{r}" if timing else "cache-suite")
        t = time.perf_counter()
        lowered = hydride_lower(k.mlir, cache, target)
        cold.append(time.perf_counter() - t)
        if timing:
            t = time.perf_counter()
            hydride_lower(k.mlir, cache, target)
            warm.append(time.perf_counter() - t)
    ll_l = to_llvm_ir(k.mlir)
    ll_h = to_llvm_ir(lowered, "hydride_")
    row = {"kernel": k.name, "target": target.label, "cpu": target.host["model"], "features": target.features,
           "withheld": " ".join(target.host["withheld"])}
    for tag, ll in (("llvm", ll_l), ("hydride", ll_h)):
        asm = run([f"{LLVM}/llc", "-O3", *target.llc], ll)
        loop = hot_loop(asm)
        row[f"insts_{tag}"] = len(loop)
        row[f"mca_{tag}"] = mca_cycles(loop, target.mca_cpu) if timing else float("nan")
        with open(os.path.join(work, f"{k.name}.{tag}.ll"), "w") as f:
            f.write(ll)
    with open(os.path.join(work, f"{k.name}.c"), "w") as f:
        f.write(harness(k, 9 if timing else 1))
    exe = os.path.join(work, k.name)
    run(["clang-22", "-O2", *target.clang, "-Wno-override-module", "-o", exe,
         f"{k.name}.c", f"{k.name}.llvm.ll", f"{k.name}.hydride.ll"], cwd=work)
    row["compile_cold_s"] = statistics.median(cold)
    row["compile_warm_s"] = statistics.median(warm) if warm else float("nan")
    if target.lacking:
        # Never start a binary that needs features this host lacks.
        row["correct"] = "not run (host lacks " + " ".join(target.lacking) + ")"
        row["speedup"] = float("nan")
        return row
    p = subprocess.run([exe], capture_output=True, text=True)
    fields = p.stdout.split()
    if len(fields) != 4:
        raise Failure(f"{k.name}: the harness failed ({p.returncode}): {p.stderr[-2000:]}")
    llvm_ok, hydride_ok, t_l, t_h = int(fields[0]), int(fields[1]), float(fields[2]), float(fields[3])
    row["correct"] = "yes" if (llvm_ok and hydride_ok) else f"NO (llvm {'ok' if llvm_ok else 'differs'}, hydride {'ok' if hydride_ok else 'differs'})"
    row["speedup"] = t_l / t_h if timing and t_h > 0 else float("nan")
    row["llvm_ms"], row["hydride_ms"] = t_l / 1e6, t_h / 1e6
    return row


COLUMNS = ["kernel", "target", "cpu", "features", "withheld", "compile_cold_s", "compile_warm_s", "insts_llvm", "insts_hydride", "mca_llvm",
           "mca_hydride", "speedup", "correct"]


def fmt(v):
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="correctness only (both paths against the reference), no timing")
    ap.add_argument("--quick", action="store_true", help="one compile run per kernel (CI-sized)")
    ap.add_argument("--runs", type=int, default=3, help="compile runs per kernel (median); default 3")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--target", default="native", choices=["native", *NAMED],
                    help="native (default: this host, -march=native) or a named target compiled for its CPU")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"), help="results folder (default results/)")
    a = ap.parse_args()
    target = Target(a.target)
    print(f"target {target.label} (hydride target={target.pass_target}; clang {' '.join(target.clang)}; "
          f"llc {' '.join(target.llc)}) on {target.host['model']}"
          + (f"; withheld: {' '.join(target.host['withheld'])}" if target.host["withheld"] else ""), file=sys.stderr)
    if target.lacking:
        print(f"SKIPPED execution: this host lacks {', '.join(target.lacking)} for {a.target}; "
              "compile times and instruction counts only", file=sys.stderr)
    kernels = suite.all_kernels()
    if a.only:
        wanted = a.only.split(",")
        unknown = [w for w in wanted if w not in {k.name for k in kernels}]
        if unknown:
            sys.exit(f"unknown kernels: {', '.join(unknown)}")
        kernels = [k for k in kernels if k.name in wanted]
    timing = not a.check
    runs = 1 if a.quick else a.runs
    rows, failures = [], []
    with tempfile.TemporaryDirectory() as work:
        for i, k in enumerate(kernels):
            print(f"[{i + 1}/{len(kernels)}] {k.name}: {k.what}", file=sys.stderr, flush=True)
            try:
                row = measure(k, work, runs, timing, target)
            except Failure as e:
                failures.append(k.name)
                print(f"  FAILED: {e}", file=sys.stderr)
                continue
            rows.append(row)
            print(f"  correct: {row['correct']}; cold {row['compile_cold_s']:.2f} s; hot loop {row['insts_llvm']} → "
                  f"{row['insts_hydride']} instructions" + (f"; speedup {row['speedup']:.2f}" if timing else ""),
                  file=sys.stderr, flush=True)
    wrong = [r["kernel"] for r in rows if r["correct"] not in ("yes",) and not r["correct"].startswith("not run")]
    # Results of different hosts and targets are kept apart.
    stem = f"bench-{target.label}"
    if timing:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, f"{stem}.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            for r in rows:
                w.writerow([fmt(r[c]) for c in COLUMNS])
        md = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        md += ["| " + " | ".join(fmt(r[c]) for c in COLUMNS) + " |" for r in rows]
        with open(os.path.join(a.out, f"{stem}.md"), "w") as f:
            f.write("\n".join(md) + "\n")
        print("\n".join(md))
        chart = os.path.join(ROOT, "target", "release", "bench-chart")
        run([chart, "--csv", os.path.join(a.out, f"{stem}.csv"), "--out", os.path.join(a.out, f"{stem}.png")])
        print(f"\nwrote {a.out}/{stem}.csv, {stem}.md and {stem}.png (target {target.label}, {target.host['model']})")
        geo = lambda xs: statistics.geometric_mean([x for x in xs if x == x and x > 0]) if xs else float("nan")
        print(f"\ngeomean speedup over LLVM 22 (native time, median of 9 runs each): {geo([r['speedup'] for r in rows]):.3f}")
        print(f"geomean compile time: cold {geo([r['compile_cold_s'] for r in rows]):.2f} s, "
              f"warm {geo([r['compile_warm_s'] for r in rows]):.2f} s (median of {runs} runs each)")
    else:
        for r in rows:
            print(f"{r['kernel']}: {r['correct']}")
    if failures or wrong:
        sys.exit(f"failed: {', '.join(failures)}; wrong outputs: {', '.join(wrong)}")


if __name__ == "__main__":
    main()
