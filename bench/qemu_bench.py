"""The benchmark suite on a target this host runs only under qemu-user:
AArch64 NEON with dot product and i8mm, or Hexagon HVX in 128-byte mode.

Every suite kernel, its map kernels at the target's vector width (128 bits
on NEON, 1024 on HVX; the hand-written layer kernels keep their 512-bit
shapes, which LLVM splits into registers), goes through three paths built
for the target: LLVM 22's own lowering of the MLIR, clang-22 -O3 on the
scalar C reference, and hydride (lower-to-autollvm for the target, then the
ISA's dialect and its LLVM intrinsics). All three run under qemu against the
scalar reference; a mismatch fails the run. qemu's timings are not
performance and are not reported: the figures are static, the hot loop's
instructions and its cost per iteration, llvm-mca cycles on a named core
that has the target's extensions (neoverse-v1: Armv8.4 with dot product
and i8mm) or, on Hexagon, which llvm-mca does not model, packets per
iteration (an in-order VLIW core issues at most one packet a cycle).
hydride's speedup is LLVM's cost over hydride's: both paths run the same
loop, one vector step per iteration (their IR goes through llc alone for
these figures, so neither is unrolled).

Halide's pipelines (bench/halide/, compiled ahead of time for the target)
run beside them when the project's .venv has Halide. Its loops follow its
schedules and cover other numbers of elements per iteration, so paths are
also compared per call (bench/qemu_trace.py): the harness runs once more under
qemu's block trace, and each path's cost is the sum over the blocks of its
own code of executions times the same static price (cycles or packets).
`over_halide` is Halide's cost per call over hydride's.

Usage: python3 bench/qemu_bench.py --target aarch64-neon-dotprod-i8mm|hexagon-hvx128 [--check] [--only K,...] [--form F] [--out DIR] [--proof-ms N]
       python3 bench/qemu_bench.py --list-targets
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import parallel  # noqa: E402
import peers  # noqa: E402
import scheduled  # noqa: E402
import suite  # noqa: E402
from asm import McaError, cycles_per_iteration, hot_loop  # noqa: E402
from qemu_trace import cost_per_call  # noqa: E402
from run import (CLANG_LEVEL, ROOT, Failure, collect, failed_line, fmt, hydride_lower, run, select,  # noqa: E402
                 to_llvm_ir, write_table)

FREESTANDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "freestanding")


@dataclass
class CrossTarget:
    name: str
    isa: str  # hydride's ISA: the dialect and conversion passes
    vector_bits: int
    clang: list  # compiling for the target
    link: list  # linking a static program qemu-user runs
    llc: list
    mca_cpu: str  # None: packets per iteration
    mca_triple: str
    runner: list
    measure: str
    runtime: list = field(default_factory=list)  # sources linked into every program
    halide_runtime: list = field(default_factory=list)  # what a Halide pipeline needs besides Halide's runtime object
    traced: tuple = ("llvm", "clang", "halide", "hydride")  # the paths priced per call


TARGETS = {
    "aarch64-neon-dotprod-i8mm": CrossTarget(
        "aarch64-neon-dotprod-i8mm", "arm", 128,
        ["--target=aarch64-linux-gnu", "-march=armv8.6-a+dotprod+i8mm"], ["-static", "-fuse-ld=lld"],
        ["-mtriple=aarch64-linux-gnu", "-mattr=+v8.6a,+dotprod,+i8mm"], "neoverse-v1", "aarch64-linux-gnu",
        ["qemu-aarch64", "-cpu", "max"], "llvm-mca -mcpu=neoverse-v1 cycles per iteration",
        halide_runtime=["-lpthread", "-lm"]),
    # No C library for Hexagon Linux in the distribution: the harness links
    # bench/freestanding's few functions instead.
    "hexagon-hvx128": CrossTarget(
        "hexagon-hvx128", "hvx", 1024,
        ["--target=hexagon", "-mcpu=hexagonv66", "-mhvx", "-mhvx-length=128b", "-ffreestanding", f"-isystem{FREESTANDING}"],
        ["-static", "-fuse-ld=lld", "-nostdlib"],
        ["-mtriple=hexagon", "-mcpu=hexagonv66", "-mattr=+hvxv66,+hvx-length128b"], None, None,
        ["qemu-hexagon", "-cpu", "v67"], "packets per iteration",
        [os.path.join(FREESTANDING, "runtime.c"), os.path.join(FREESTANDING, "division.c")],
        # Halide's runtime for Hexagon is QuRT's: bench/freestanding/halide.c stands in for it.
        [os.path.join(FREESTANDING, "halide.c")],
        # clang's loops for HVX are scalar: traced, they would take most of an hour.
        ("llvm", "halide", "hydride")),
}

PATHS = ["llvm", "clang", "halide", "hydride"]
COLUMNS = ["kernel", "target", *[f"insts_{t}" for t in PATHS], *[f"cost_{t}" for t in PATHS], "cost_measure",
           "speedup", *[f"call_{t}" for t in PATHS], "speedup_call", "over_halide", "over_clang", "compile_s", "compile_halide_s",
           "correct"]


def measure(k, work, target, static, halide, proof_ms=None):
    src = os.path.join(work, f"{k.name}.mlir")
    with open(src, "w") as f:
        f.write(k.mlir)
    t = time.perf_counter()
    lowered = hydride_lower(k.mlir, os.path.join(work, "cache"), target.name, target.isa, proof_ms)
    row = {"kernel": k.name, "target": target.name, "compile_s": time.perf_counter() - t,
           "cost_measure": target.measure, "compile_halide_s": float("nan")}
    objects, asm = {}, {}
    for tag, ll in (("llvm", to_llvm_ir(k.mlir)), ("hydride", to_llvm_ir(lowered, "hydride_"))):
        name = f"{k.name}.{tag}.ll"
        with open(os.path.join(work, name), "w") as f:
            f.write(ll)
        asm[tag] = run(["llc", "-O3", *target.llc, "-o", "-", name], cwd=work)
        objects[tag] = os.path.join(work, f"{k.name}.{tag}.o")
        run(["clang-22", "-O2", *target.clang, "-Wno-override-module", "-c", "-o", objects[tag], name], cwd=work)
    clang_c = f"{k.name}.clang.c"
    with open(os.path.join(work, clang_c), "w") as f:
        f.write(peers.clang_source(k))
    asm["clang"] = run(["clang-22", CLANG_LEVEL, *target.clang, "-S", "-o", "-", clang_c], cwd=work)
    objects["clang"] = os.path.join(work, f"{k.name}.clang.o")
    run(["clang-22", CLANG_LEVEL, *target.clang, "-c", "-o", objects["clang"], clang_c], cwd=work)
    # No speedup over clang per iteration: its loop is its own (interleaved, unrolled), not the same iteration.
    paths = [harness.Path("llvm", k.name, "memref"), harness.Path("clang", f"clang_{k.name}", "plain")]
    include, halide_link = [], []
    if not halide.missing:
        try:
            path, asm["halide"], objects["halide"], row["compile_halide_s"] = halide.path(k.name)
        except (KeyError, RuntimeError) as e:
            raise Failure(str(e))
        paths.append(path)
        include = [f"-I{halide.include}"]
        halide_link = ([halide.runtime] if halide.runtime else []) + target.halide_runtime
    paths.append(harness.Path("hydride", f"hydride_{k.name}", "memref"))
    ran = [p.tag for p in paths]
    for tag in PATHS:
        row[f"insts_{tag}"] = len(hot_loop(asm[tag])) if tag in asm else float("nan")
        row[f"cost_{tag}"] = (cycles_per_iteration(asm[tag], target.mca_cpu, target.mca_triple)
                              if static and tag in asm else float("nan"))
        row[f"call_{tag}"] = float("nan")
    row["speedup"] = row["cost_llvm"] / row["cost_hydride"] if static else float("nan")
    with open(os.path.join(work, f"{k.name}.c"), "w") as f:
        f.write(harness.harness(k, paths, 1, timed=False))
    exe = os.path.join(work, k.name)
    link = ["clang-22", "-O1", *target.clang, *include, *target.link]
    libraries = [*objects.values(), *target.runtime, *halide_link]
    run([*link, "-o", exe, f"{k.name}.c", *libraries], cwd=work)
    proc = subprocess.run([*target.runner, exe], capture_output=True, text=True, timeout=1800)
    if static:
        # Priced per call: the same paths in a program without the reference, run under qemu's trace.
        traced = [p for p in paths if p.tag in target.traced]
        with open(os.path.join(work, f"{k.name}.traced.c"), "w") as f:
            f.write(harness.harness(k, traced, 1, timed=False, reference=False))
        link_map = exe + ".map"
        run([*link, f"-Wl,-Map={link_map}", "-o", exe + ".traced", f"{k.name}.traced.c", *libraries], cwd=work)
        traced_run, calls = cost_per_call(target.runner, exe + ".traced", link_map,
                                          {p.tag: [objects[p.tag]] for p in traced}, target.mca_cpu, target.mca_triple, 3600)
        if traced_run.returncode != 0:
            raise Failure(f"{k.name}: the traced program failed ({traced_run.returncode}): {traced_run.stderr[-2000:]}")
        for tag, cost in calls.items():
            row[f"call_{tag}"] = cost
    row["speedup_call"] = row["call_llvm"] / row["call_hydride"] if static else float("nan")
    row["over_halide"] = row["call_halide"] / row["call_hydride"] if static else float("nan")
    row["over_clang"] = row["call_clang"] / row["call_hydride"] if static else float("nan")
    results = {}
    for line in proc.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] in ran:
            results[f[0]] = int(f[1])
    if set(results) != set(ran):
        raise Failure(f"{k.name}: the harness failed under {target.runner[0]} ({proc.returncode}): "
                      f"{proc.stdout[-1000:]}{proc.stderr[-2000:]}")
    wrong = [tag for tag, ok in results.items() if not ok]
    row["correct"] = "yes" if not wrong else "NO (" + ", ".join(f"{t} differs" for t in wrong) + ")"
    if "halide" in wrong:
        row["over_halide"] = float("nan")  # no ratio over a peer whose output is wrong
    return row


def geomean(rows, column):
    values = [r[column] for r in rows if r[column] == r[column] and r[column] > 0]
    return (statistics.geometric_mean(values), len(values)) if values else (float("nan"), 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--target", choices=list(TARGETS))
    which.add_argument("--list-targets", action="store_true", help="print the targets, one a line, and exit")
    ap.add_argument("--check", action="store_true", help="correctness under qemu only, no static figures")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"), help="results folder (default results/)")
    ap.add_argument("--proof-ms", type=int, default=None, help="Z3's budget per proof (default: the pass's)")
    ap.add_argument("--form", default="both", choices=[*scheduled.FORMS, "both"],
                    help="the kernels' MLIR: direct, scheduled as the Halide pipelines (bench/schedule.py), or both")
    ap.add_argument("--jobs", type=int, default=None,
                    help="kernels worked on at once (default: every core with --check, else one: compile times are figures)")
    a = ap.parse_args()
    if a.list_targets:
        print("\n".join(TARGETS))
        return
    run_suite(a.target, a.check, a.only, a.out, a.proof_ms, a.jobs or (parallel.default_jobs() if a.check else 1),
              scheduled.chosen(a.form))


def run_suite(target_name, check, only, out, proof_ms=None, jobs=1, forms=("direct",)):
    """The suite on `target_name` (see the module's description), `jobs`
    kernels at once, in each of `forms` (bench/scheduled.py)."""
    target = TARGETS[target_name]
    if not shutil.which(target.runner[0]):
        sys.exit(f"{target.runner[0]} not found: scripts/setup installs qemu-user")
    suite.VECTOR_BITS = target.vector_bits
    kernels = select(suite.all_kernels(), only)
    print(f"target {target.name}: hydride target={target.name}" + (f" proof-ms={proof_ms}" if proof_ms else "") + f", clang {' '.join(target.clang)}, "
          f"run under {' '.join(target.runner)}; cost: {target.measure}", file=sys.stderr)
    failed = []
    with tempfile.TemporaryDirectory() as work:
        # One Halide build serves both forms: a scheduled kernel keeps its pipeline.
        halide = peers.Halide(target.name, None, target.mca_cpu, work, kernels, target.vector_bits, jobs)
        print(halide.describe(), file=sys.stderr, flush=True)
        for form in forms:
            print(f"form {form}", file=sys.stderr, flush=True)
            in_form = scheduled.in_form(kernels, form, target.vector_bits)
            # Correctness on every core; figures (compile times among them) one kernel at a time unless told.
            measured = parallel.in_order(in_form, lambda k: measure(k, work, target, not check, halide, proof_ms), jobs,
                                         (Failure, McaError, subprocess.TimeoutExpired))
            failed += report(form, in_form, measured, target, check, out, proof_ms, halide)
    if failed:
        sys.exit("failed: " + "; ".join(failed))


def report(form, kernels, measured, target, check, out, proof_ms, halide):
    """Prints and writes one form's results; returns what failed, as lines."""
    def describe(row):
        return (f"correct: {row['correct']}; hot-loop instructions: "
                + ", ".join(f"{t} {row['insts_' + t]}" for t in PATHS)
                + ("" if check else f"; cost llvm {fmt(row['cost_llvm'])}, hydride {fmt(row['cost_hydride'])}, "
                   f"speedup {fmt(row['speedup'])}; per call " + ", ".join(f"{t} {fmt(row['call_' + t])}" for t in PATHS)
                   + f", over Halide {fmt(row['over_halide'])}"))

    rows, failures = collect(kernels, measured, describe)
    # A wrong output of LLVM's path, clang or hydride fails the run; Halide's is reported and left out of its ratio.
    wrong = [r["kernel"] for r in rows if r["correct"] not in ("yes", "NO (halide differs)")]
    halide_wrong = [r["kernel"] for r in rows if r["correct"] == "NO (halide differs)"]
    if not check:
        stem = os.path.join(out, scheduled.stem(target.name, form) + (f"-proof-ms-{proof_ms}" if proof_ms else ""))
        write_table(stem, COLUMNS, COLUMNS, rows)
        speedups = [r["speedup"] for r in rows if r["speedup"] == r["speedup"] and r["speedup"] > 0]
        if speedups:
            worst = min(rows, key=lambda r: r["speedup"] if r["speedup"] == r["speedup"] else float("inf"))
            print(f"\nwrote {stem}.csv and {stem}.md")
            print(f"{form} form: hydride's geomean speedup over LLVM 22's path ({target.measure}): "
                  f"{statistics.geometric_mean(speedups):.3f} over {len(speedups)} kernels; "
                  f"worst {worst['kernel']} {worst['speedup']:.3f}; "
                  f"{sum(1 for s in speedups if s > 1.0001)} faster, {sum(1 for s in speedups if s < 0.9999)} slower")
            for column, what in (("speedup_call", "LLVM 22's path"), ("over_halide", "Halide's"), ("over_clang", "clang -O3's")):
                g, n = geomean(rows, column)
                print(f"{form} form: hydride's geomean speedup over {what} per call (dynamic {target.measure.replace(' per iteration', '')}): "
                      + (f"{g:.3f} over {n} kernels" if n else "– (" + (halide.describe() if column == "over_halide" else "no figures") + ")"))
    else:
        for r in rows:
            print(f"{form} {r['kernel']}: {r['correct']}")
    if halide_wrong:
        print(f"{form} form: Halide's output differs from the reference under {target.runner[0]} (left out of the ratio over Halide): "
              + ", ".join(halide_wrong))
    return failed_line(form, failures, wrong)

if __name__ == "__main__":
    main()
