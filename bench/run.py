"""Runs the benchmark suite (bench/suite.py) through four paths compiled for
the same CPU: LLVM 22's own lowering of the MLIR, clang -O3 on the scalar C
reference, Halide 21's pipelines (bench/halide/, ahead of time) and
hydride. Correctness of every path against the scalar reference always;
with timing, compile times (hydride cold and warm memo, Halide), hot-loop
instructions, llvm-mca cycles per iteration and native run time, and
hydride's speedup over LLVM's path and over the fastest peer.

The target is `native` by default: hydride's `target=native` (what this host
executes, less HYDRIDE_WITHHOLD_FEATURES), `-march=native` less the same
features for LLVM and clang, and the Halide target of the same features
(bench/halide/targets.py). `--target x86-avx512` (Zen 4) or `--target x86-avx2`
(x86-64-v3) compile for that CPU on any host; their binaries run only where
the host has the features (checked before starting them), else execution is
skipped and says which features are missing.

Usage: python3 bench/run.py [--check] [--quick] [--runs N] [--only NAME,...] [--target T] [--form F] [--out DIR]
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
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import parallel  # noqa: E402
import peers  # noqa: E402
import scheduled  # noqa: E402
import suite  # noqa: E402
from asm import McaError, hot_loop, mca_cycles  # noqa: E402

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


def x86_vector_bits(label):
    """The natural vector width of an x86 target (`x86-avx512…`, `x86-avx2…`),
    which its scheduled forms use (bench/schedule.py)."""
    return 512 if "avx512" in label else 256


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
            # The CPU `hydride host` tunes for: LLVM's name, corrected where
            # the host has extensions that CPU lacks (a VM hiding the model).
            self.mca_cpu = host.get("cpu") or "native"
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
        # The natural vector width of the target, which the scheduled forms use (bench/schedule.py).
        self.vector_bits = x86_vector_bits(self.label)


class Failure(Exception):
    pass


def run(args, stdin=None, cwd=None):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        raise Failure(f"{' '.join(args[:3])} …: exit {p.returncode}\n{p.stderr[-4000:]}")
    return p.stdout


def hydride_lower(mlir, cache, target, isa="x86", proof_ms=None, cpu=None):
    """hydride's lowering of `mlir` for `target` (lower-to-autollvm's name)
    and `cpu` (LLVM's name; default: the target's), through the dialect of
    `isa` to the LLVM dialect; `proof_ms`: Z3's budget per proof if not the
    pass's default."""
    budget = f" proof-ms={proof_ms} window-ms={max(60000, 2 * proof_ms)}" if proof_ms else ""
    budget += f" cpu={cpu}" if cpu else ""
    pipeline = (f"builtin.module(lower-to-autollvm{{target={target} cache-dir={cache}{budget}}},"
                f"convert-autollvm-to-{isa},convert-hydride-{isa}-to-llvm)")
    return run([f"{LLVM}/mlir-opt", f"--load-dialect-plugin={PLUGIN}", f"--load-pass-plugin={PLUGIN}",
                f"--pass-pipeline={pipeline}"], mlir)


def to_llvm_ir(mlir, prefix=""):
    ll = run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], run([f"{LLVM}/mlir-opt", *UPSTREAM], mlir))
    if prefix:
        ll = re.sub(r"^define (.*?) @([A-Za-z0-9_]+)\(", lambda m: f"define {m.group(1)} @{prefix}{m.group(2)}(", ll, flags=re.M)
    return ll


PATHS = ["llvm", "clang", "halide", "hydride"]
# Timed repetitions of every path per kernel (bench/harness.py).
REPETITIONS = 21
PEERS = ["llvm", "clang", "halide"]


# The clang column: the C reference at this level.
CLANG_LEVEL = "-O3"


def assemble(source, target, work):
    """Assembly of one path for the hot-loop figures. The MLIR paths' IR goes
    through llc alone, so their loops stay one vector step per iteration as
    the lowering wrote them (clang -O2, which builds the objects that run,
    unrolls them by different factors); clang's column is its own output."""
    if source.endswith(".ll"):
        return run([f"{LLVM}/llc", "-O3", *target.llc, "-o", "-", source], cwd=work)
    return run(["clang-22", CLANG_LEVEL, *target.clang, "-S", "-o", "-", source], cwd=work)


def measure(k, work, runs, timing, target, halide):
    src = os.path.join(work, f"{k.name}.mlir")
    with open(src, "w") as f:
        f.write(k.mlir)
    cold, warm = [], []
    lowered = None
    for r in range(runs if timing else 1):
        # Timing: a fresh memo per run (cold). Correctness only: one memo for the suite.
        cache = os.path.join(work, f"cache-{k.name}-{zlib.crc32(k.mlir.encode()):08x}-{r}" if timing else "cache-suite")
        t = time.perf_counter()
        lowered = hydride_lower(k.mlir, cache, target.pass_target)
        cold.append(time.perf_counter() - t)
        if timing:
            t = time.perf_counter()
            hydride_lower(k.mlir, cache, target.pass_target)
            warm.append(time.perf_counter() - t)
    row = {"kernel": k.name, "target": target.label, "cpu": target.host["model"], "features": target.features,
           "withheld": " ".join(target.host["withheld"]), "halide_target": "" if halide.missing else halide.target.halide}
    objects = []
    paths = [harness.Path("llvm", k.name, "memref")]
    asm = {}
    # The MLIR paths' LLVM IR through clang -O2 (LLVM's optimization pipeline, then code generation).
    for tag, ll in (("llvm", to_llvm_ir(k.mlir)), ("hydride", to_llvm_ir(lowered, "hydride_"))):
        with open(os.path.join(work, f"{k.name}.{tag}.ll"), "w") as f:
            f.write(ll)
        asm[tag] = assemble(f"{k.name}.{tag}.ll", target, work)
        run(["clang-22", "-O2", *target.clang, "-Wno-override-module", "-c", "-o", f"{k.name}.{tag}.o", f"{k.name}.{tag}.ll"], cwd=work)
        objects.append(f"{k.name}.{tag}.o")
    clang_c = f"{k.name}.clang.c"
    with open(os.path.join(work, clang_c), "w") as f:
        f.write(peers.clang_source(k))
    asm["clang"] = assemble(clang_c, target, work)
    run(["clang-22", CLANG_LEVEL, *target.clang, "-c", "-o", f"{k.name}.clang.o", clang_c], cwd=work)
    objects.append(f"{k.name}.clang.o")
    paths.append(harness.Path("clang", f"clang_{k.name}", "plain"))
    row["compile_halide_s"] = float("nan")
    if not halide.missing:
        try:
            path, asm["halide"], obj, row["compile_halide_s"] = halide.path(k.name)
        except (KeyError, RuntimeError) as e:
            raise Failure(str(e))
        objects.append(obj)
        paths.append(path)
    # Last: the harness's ratios are to the last path's time.
    paths.append(harness.Path("hydride", f"hydride_{k.name}", "memref"))
    for tag in PATHS:
        loop = hot_loop(asm[tag]) if tag in asm else []
        row[f"insts_{tag}"] = len(loop) if tag in asm else float("nan")
        row[f"mca_{tag}"] = mca_cycles(loop, target.mca_cpu) if timing and tag in asm else float("nan")
    with open(os.path.join(work, f"{k.name}.c"), "w") as f:
        f.write(harness.harness(k, paths, REPETITIONS if timing else 1))
    exe = os.path.join(work, k.name)
    include = [f"-I{halide.include}"] if not halide.missing else []
    runtime = [halide.runtime, "-lpthread", "-ldl", "-lm"] if not halide.missing and halide.runtime else []
    # The harness and its reference at -O1, so the oracle is not the clang column's -O3 build.
    run(["clang-22", "-O1", *target.clang, *include, "-o", exe, f"{k.name}.c", *objects, *runtime], cwd=work)
    row["compile_cold_s"] = statistics.median(cold)
    row["compile_warm_s"] = statistics.median(warm) if warm else float("nan")
    for tag in PATHS:
        row[f"{tag}_ms"] = float("nan")
    row["speedup"] = row["speedup_best_peer"] = float("nan")
    row["best_peer"] = ""
    if target.lacking:
        # Never start a binary that needs features this host lacks.
        row["correct"] = "not run (host lacks " + " ".join(target.lacking) + ")"
        return row
    results, ratios = run_harness(exe, k, paths, PROCESSES if timing else 1)
    wrong = [tag for tag, (ok, _) in results.items() if not ok]
    row["correct"] = "yes" if not wrong else "NO (" + ", ".join(f"{t} differs" for t in wrong) + ")"
    for tag, (_, ns) in results.items():
        row[f"{tag}_ms"] = ns / 1e6
    if timing and results["hydride"][1] > 0:
        # A path's time over hydride's in the same repetition, the median
        # over the repetitions (bench/harness.py).
        row["speedup"] = ratios["llvm"]
        for t in PEERS:
            row[f"over_{t}"] = ratios.get(t, float("nan"))
        best = min((results[t][1], t) for t in PEERS if t in results)
        row["best_peer"] = best[1]
        row["speedup_best_peer"] = ratios[best[1]]
    return row


# Timed harness runs per kernel, each its own process: a process's arrays
# land on different pages and cache sets, which moves one kernel's time by
# up to 10% between processes on a shared host; each path's figures are the
# medians over the processes.
PROCESSES = 3


def run_harness(exe, k, paths, processes):
    """Runs the harness `processes` times: per path, whether every run
    agreed with the reference, the median time (ns) and the median ratio to
    hydride's time (bench/harness.py)."""
    times, ratios, ok = {}, {}, {}
    for _ in range(processes):
        proc = subprocess.run([exe], capture_output=True, text=True)
        seen = set()
        for line in proc.stdout.splitlines():
            f = line.split()
            # Untimed, a path's line has no ratio.
            if len(f) in (3, 4) and f[0] in PATHS:
                seen.add(f[0])
                ok[f[0]] = ok.get(f[0], 1) & int(f[1])
                times.setdefault(f[0], []).append(float(f[2]))
                ratios.setdefault(f[0], []).append(float(f[3]) if len(f) == 4 else float("nan"))
        if seen != {p.tag for p in paths}:
            raise Failure(f"{k.name}: the harness failed ({proc.returncode}): {proc.stderr[-2000:]}")
    results = {t: (ok[t], statistics.median(times[t])) for t in times}
    return results, {t: statistics.median(r) for t, r in ratios.items()}


COLUMNS = ["kernel", "target", "cpu", "features", "withheld", "halide_target", "compile_cold_s", "compile_warm_s",
           "compile_halide_s", *[f"{t}_ms" for t in PATHS], *[f"insts_{t}" for t in PATHS], *[f"mca_{t}" for t in PATHS],
           "speedup", "best_peer", "speedup_best_peer", "correct"]
# The markdown table: the figures, without the host columns the CSV repeats on every row.
MD_COLUMNS = ["kernel", *[f"{t}_ms" for t in PATHS], *[f"insts_{t}" for t in PATHS], *[f"mca_{t}" for t in PATHS],
              "compile_cold_s", "compile_halide_s", "speedup", "best_peer", "speedup_best_peer", "correct"]


def fmt(v):
    if isinstance(v, float):
        if v != v:
            return "–"
        return f"{v:.4f}" if abs(v) < 1 else f"{v:.3f}"
    return str(v)


def select(kernels, only):
    """The kernels named in `only` (comma-separated; all if empty); exits on an unknown name."""
    if not only:
        return kernels
    wanted = only.split(",")
    unknown = [w for w in wanted if w not in {k.name for k in kernels}]
    if unknown:
        sys.exit(f"unknown kernels: {', '.join(unknown)}")
    return [k for k in kernels if k.name in wanted]


def write_table(stem, columns, md_columns, rows, footer=None):
    """`stem`.csv with `columns` and `stem`.md with `md_columns` (and the
    footer line), the markdown also printed."""
    os.makedirs(os.path.dirname(stem), exist_ok=True)
    with open(stem + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns)
        w.writerows([[fmt(r[c]) for c in columns] for r in rows])
    md = ["| " + " | ".join(md_columns) + " |", "|" + "---|" * len(md_columns)]
    md += ["| " + " | ".join(fmt(r[c]) for c in md_columns) + " |" for r in rows]
    if footer:
        md += ["", footer]
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="correctness only (every path against the reference), no timing")
    ap.add_argument("--quick", action="store_true", help="one compile run per kernel (CI-sized)")
    ap.add_argument("--runs", type=int, default=3, help="compile runs per kernel (median); default 3")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    import qemu_bench  # after this module is loaded: it takes helpers from it
    ap.add_argument("--target", default="native", choices=["native", *NAMED, *qemu_bench.TARGETS],
                    help="native (default: this host, -march=native), a named x86 target compiled for its CPU, or a "
                         "target run under qemu-user (AArch64, Hexagon; bench/qemu_bench.py: static figures)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"), help="results folder (default results/)")
    ap.add_argument("--form", default="both", choices=[*scheduled.FORMS, "both"],
                    help="the kernels' MLIR: direct (the suite's, one vector step at its width), scheduled (the "
                         "loops and width of each kernel's Halide pipeline on the target, bench/schedule.py) or "
                         "both (default); results/bench-<target>[-scheduled].*")
    ap.add_argument("--jobs", type=int, default=None,
                    help="kernels worked on at once (default: every core with --check; else one, as compile and "
                         "run times are figures)")
    ap.add_argument("--proof-ms", type=int, default=None,
                    help="Z3's budget per proof for hydride (default: the pass's, 20000); targets run under qemu only")
    a = ap.parse_args()
    if a.proof_ms and a.target not in qemu_bench.TARGETS:
        sys.exit("--proof-ms applies to the targets run under qemu (aarch64-neon-dotprod-i8mm, hexagon-hvx128)")
    if a.target in qemu_bench.TARGETS:
        jobs = a.jobs or (parallel.default_jobs() if a.check else 1)
        return qemu_bench.run_suite(a.target, a.check, a.only, a.out, a.proof_ms, jobs, scheduled.chosen(a.form))
    target = Target(a.target)
    print(f"target {target.label} (hydride target={target.pass_target}; clang {' '.join(target.clang)}; "
          f"llc {' '.join(target.llc)}) on {target.host['model']}"
          + (f"; withheld: {' '.join(target.host['withheld'])}" if target.host["withheld"] else ""), file=sys.stderr)
    if target.lacking:
        print(f"SKIPPED execution: this host lacks {', '.join(target.lacking)} for {a.target}; "
              "compile times and instruction counts only", file=sys.stderr)
    kernels = select(suite.all_kernels(), a.only)
    timing = not a.check
    runs = 1 if a.quick else a.runs
    # Timing needs a quiet machine: kernels one at a time; correctness on every core.
    jobs = 1 if timing else (a.jobs or parallel.default_jobs())
    failed = []
    with tempfile.TemporaryDirectory() as work:
        # One Halide build serves both forms: a scheduled kernel keeps its pipeline.
        halide = peers.Halide(a.target, target.host, target.mca_cpu, work, kernels, jobs=jobs)
        print(halide.describe(), file=sys.stderr, flush=True)
        for form in scheduled.chosen(a.form):
            print(f"form {form}" + (f" ({target.vector_bits}-bit vectors)" if form == "scheduled" else ""),
                  file=sys.stderr, flush=True)
            in_form = scheduled.in_form(kernels, form, target.vector_bits)
            measured = parallel.in_order(in_form, lambda k: measure(k, work, runs, timing, target, halide), jobs,
                                         (Failure, McaError))
            failed += report(form, in_form, measured, a, target, halide, timing, runs)
    if timing:
        chart(a, target)
    if failed:
        sys.exit("failed: " + "; ".join(failed))


def chart(a, target):
    """One picture of the forms run, a panel each (bench/chart/): results/bench-<target>[-<form>].png
    after the first form run."""
    stems = [scheduled.stem(target.label, form) for form in scheduled.chosen(a.form)]
    csvs = [os.path.join(a.out, f"{stem}.csv") for stem in stems if os.path.exists(os.path.join(a.out, f"{stem}.csv"))]
    if target.lacking or not csvs:
        print("no chart: nothing ran on this host" if target.lacking else "no chart: no results")
        return
    png = os.path.join(a.out, f"{stems[0]}.png")
    run([os.path.join(ROOT, "target", "release", "bench-chart"), "--csv", *csvs, "--out", png])
    print(f"wrote {png} ({', '.join(scheduled.chosen(a.form))})")


def collect(kernels, measured, describe):
    """The rows of the kernels measured and the names of those that failed,
    each kernel's progress printed: its row described by `describe`."""
    rows, failures = [], []
    for i, (k, row) in enumerate(measured):
        print(f"[{i + 1}/{len(kernels)}] {k.name}: {k.what}", file=sys.stderr, flush=True)
        if isinstance(row, Exception):
            failures.append(k.name)
            print(f"  FAILED: {row}", file=sys.stderr)
            continue
        rows.append(row)
        print(f"  {describe(row)}", file=sys.stderr, flush=True)
    return rows, failures


def failed_line(form, failures, wrong):
    """What failed in one form's run, as a list of one line (empty if nothing did)."""
    if not failures and not wrong:
        return []
    return [f"{form}: " + (f"failed {', '.join(failures)}; " if failures else "")
            + (f"wrong outputs {', '.join(wrong)}" if wrong else "")]


def report(form, kernels, measured, a, target, halide, timing, runs):
    """Prints and writes one form's results; returns what failed, as lines."""
    def describe(row):
        loops = ", ".join(f"{t} {fmt(row['insts_' + t])}" for t in PATHS)
        return (f"correct: {row['correct']}; cold {row['compile_cold_s']:.2f} s; hot-loop instructions: {loops}"
                + (f"; speedup over LLVM {row['speedup']:.2f}, over the best peer ({row['best_peer']}) "
                   f"{row['speedup_best_peer']:.2f}" if timing else ""))

    rows, failures = collect(kernels, measured, describe)
    wrong = [r["kernel"] for r in rows if r["correct"] not in ("yes",) and not r["correct"].startswith("not run")]
    failed = failed_line(form, failures, wrong)
    # Results of different hosts, targets and forms are kept apart.
    stem = scheduled.stem(target.label, form)
    if not timing:
        for r in rows:
            print(f"{form} {r['kernel']}: {r['correct']}")
        return failed
    write_table(os.path.join(a.out, stem), COLUMNS, MD_COLUMNS, rows,
                f"target {target.label}, {target.host['model']}, {form} form; {halide.describe()}")
    print(f"\nwrote {a.out}/{stem}.csv and {stem}.md (target {target.label}, {target.host['model']})")
    print(f"\n{form} form:")
    print(f"geomean compile time: cold {geo([r['compile_cold_s'] for r in rows]):.2f} s "
          f"(max {max((r['compile_cold_s'] for r in rows), default=float('nan')):.2f} s), "
          f"warm {geo([r['compile_warm_s'] for r in rows]):.2f} s (median of {runs} runs each); "
          f"Halide {geo([r['compile_halide_s'] for r in rows]):.2f} s")
    static = [(r["mca_llvm"], r["mca_hydride"]) for r in rows if r["mca_llvm"] > 0 and r["mca_hydride"] > 0]
    if static:
        print(f"llvm-mca ({target.mca_cpu}) cycles per iteration, LLVM's path over hydride's: geomean "
              f"{geo([l / h for l, h in static]):.3f}; cheaper {sum(h < l for l, h in static)}, "
              f"same {sum(h == l for l, h in static)}, dearer {sum(h > l for l, h in static)} "
              f"of {len(static)} kernels")
    if halide.missing:
        print(f"note: {halide.describe()}")
    if target.lacking:
        print(f"no run times: this host lacks {', '.join(target.lacking)} for {a.target}")
        return failed
    ratio = lambda peer: geo([r.get(f"over_{peer}", float("nan")) for r in rows])
    print(f"hydride's geomean speedup (native time: in each of {PROCESSES} processes the median over {REPETITIONS} "
          "repetitions of the ratio to hydride's time in the same repetition, the median over the processes; > 1 "
          "means hydride is faster):")
    print(f"  over LLVM 22's path: {ratio('llvm'):.3f}")
    print(f"  over clang -O3:      {ratio('clang'):.3f}")
    print(f"  over Halide:         " + (f"{ratio('halide'):.3f}" if not halide.missing else "– (no Halide column)"))
    print(f"  over the best peer:  {geo([r['speedup_best_peer'] for r in rows]):.3f}")
    return failed


def geo(xs):
    xs = [x for x in xs if x == x and x > 0]
    return statistics.geometric_mean(xs) if xs else float("nan")

if __name__ == "__main__":
    main()
