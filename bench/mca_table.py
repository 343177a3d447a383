"""Prices hydride's hot loop against LLVM's own path on every CPU of a set, by
that CPU's llvm-mca model: for each suite kernel and each target, both paths'
LLVM IR (the same IR `scripts/bench` runs, hydride's lowered for that CPU with
`cpu=`, as a user compiling for it would) goes through llc tuned for each CPU
that can run the target, and llvm-mca on that CPU prices the hot loop.

A CPU runs a target when it has the target's features: `x86-avx512` is Zen 4's
feature set, `x86-avx2` x86-64-v3's, `aarch64-neon-dotprod-i8mm` Armv8.6-A's
with dot product and i8mm. llc compiles for the CPU with the features beyond
the target's turned off (`-mattr`), so both paths use the same instructions
and only the CPU's tuning and model differ; llvm-mca is given the same.

Prints, per target, the kernel x CPU table of LLVM's cycles per iteration
over hydride's (above 1: hydride's loop is cheaper), the geomean per CPU and
every entry where hydride's loop is dearer; exits 1 if any is.
Usage: python3 bench/mca_table.py [--target T] [--only KERNEL,...] [--jobs N] [--out FILE.md]
"""

import argparse
import math
import os
import sys
import tempfile
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parallel  # noqa: E402
import suite  # noqa: E402
from asm import McaError, hot_loop, mca_cycles  # noqa: E402
from run import LLVM, Failure, hydride_lower, run, select, to_llvm_ir  # noqa: E402


@dataclass(frozen=True)
class PricedTarget:
    name: str  # lower-to-autollvm's target
    isa: str  # hydride's dialect and conversion passes
    vector_bits: int  # the suite's vector width for it
    triple: str
    mattr: str  # llc's and llvm-mca's -mattr: the target's features on any CPU of the set
    cpus: tuple  # the CPUs that run it


# Features beyond x86-64-v3 (x86-avx2) and beyond Zen 4's (x86-avx512) that a CPU of the set may have.
TARGETS = {
    "x86-avx512": PricedTarget("x86-avx512", "x86", 512, "x86_64-linux-gnu", "-avxvnni,-avx512fp16",
                               ("znver4", "znver5", "icelake-server", "rocketlake", "sapphirerapids", "emeraldrapids")),
    "x86-avx2": PricedTarget("x86-avx2", "x86", 512, "x86_64-linux-gnu", "-avx512f,-avxvnni",
                             ("znver3", "znver4", "znver5", "skylake-avx512", "icelake-server", "sapphirerapids",
                              "emeraldrapids", "alderlake", "x86-64-v3", "x86-64-v4")),
    "aarch64-neon-dotprod-i8mm": PricedTarget("aarch64-neon-dotprod-i8mm", "arm", 128, "aarch64-linux-gnu",
                                              "+v8.6a,+dotprod,+i8mm",
                                              ("neoverse-n1", "neoverse-v1", "neoverse-n2", "neoverse-v2",
                                               "cortex-a78")),
}


def loop_on(ll_file, target, cpu, work):
    """The hot loop of `ll_file` compiled by llc for `cpu` with the target's features."""
    asm = run([f"{LLVM}/llc", "-O3", f"-mtriple={target.triple}", f"-mcpu={cpu}", f"-mattr={target.mattr}",
               "-o", "-", ll_file], cwd=work)
    return hot_loop(asm)


def price(k, target, work):
    """{cpu: (LLVM's cycles, hydride's cycles)} for kernel `k` at `target`,
    hydride lowering for each CPU (`cpu=`) as a user compiling for it would."""
    def written(tag, ll):
        path = os.path.join(work, f"{k.name}.{tag}.ll")
        with open(path, "w") as f:
            f.write(ll)
        return path

    llvm_file = written("llvm", to_llvm_ir(k.mlir))
    cycles, files = {}, {}
    for cpu in target.cpus:
        ll = to_llvm_ir(hydride_lower(k.mlir, os.path.join(work, "cache"), target.name, target.isa, cpu=cpu),
                        "hydride_")
        if ll not in files:
            files[ll] = written(f"hydride-{len(files)}", ll)
        priced = [mca_cycles(loop_on(path, target, cpu, work), cpu, target.triple, target.mattr)
                  for path in (llvm_file, files[ll])]
        cycles[cpu] = tuple(priced)
    return cycles


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def table(target, kernels, results):
    """The Markdown table of LLVM's cycles over hydride's, kernel x CPU, and the dearer entries."""
    lines = [f"### {target.name}", "", "| kernel | " + " | ".join(target.cpus) + " |",
             "|---|" + "---|" * len(target.cpus)]
    dearer = []
    for k in kernels:
        cycles = results[k.name]
        cells = []
        for cpu in target.cpus:
            llvm, hydride = cycles[cpu]
            ratio = llvm / hydride if hydride > 0 else float("nan")
            cells.append(f"{ratio:.2f}" + (" **dearer**" if hydride > llvm else ""))
            if hydride > llvm:
                dearer.append(f"{target.name} {k.name} on {cpu}: hydride {hydride:.2f} cycles, LLVM {llvm:.2f}")
        lines.append(f"| {k.name} | " + " | ".join(cells) + " |")
    means = [geomean(results[k.name][cpu][0] / results[k.name][cpu][1] for k in kernels) for cpu in target.cpus]
    lines.append("| geomean | " + " | ".join(f"{m:.3f}" for m in means) + " |")
    return lines, dearer


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target", choices=list(TARGETS), action="append",
                   help="a target to price (repeatable; default: all)")
    p.add_argument("--only", help="comma-separated kernel names")
    p.add_argument("--jobs", type=int, default=parallel.default_jobs())
    p.add_argument("--out", help="also write the tables to this Markdown file")
    a = p.parse_args()
    report, dearer, failures = [], [], []
    for name in a.target or list(TARGETS):
        target = TARGETS[name]
        suite.VECTOR_BITS = target.vector_bits
        kernels = select(suite.all_kernels(), a.only)
        results = {}
        with tempfile.TemporaryDirectory(prefix=f"hydride-mca-{name}-") as work:
            for k, outcome in parallel.in_order(kernels, lambda k: price(k, target, work), a.jobs,
                                                (Failure, McaError)):
                if isinstance(outcome, Exception):
                    failures.append(f"{name} {k.name}: {str(outcome).splitlines()[0]}")
                    print(f"{name} {k.name}: FAILED {str(outcome)[:300]}", file=sys.stderr)
                else:
                    results[k.name] = outcome
                    print(f"{name} {k.name}: priced on {len(outcome)} CPUs", file=sys.stderr)
        priced = [k for k in kernels if k.name in results]
        lines, d = table(target, priced, results)
        report += lines + [""]
        dearer += d
    report.append(f"{len(dearer)} dearer entries" + (":" if dearer else ""))
    report += [f"- {d}" for d in dearer]
    text = "\n".join(report)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    if failures:
        sys.exit("failed: " + "; ".join(failures))
    if dearer:
        sys.exit(1)


if __name__ == "__main__":
    main()
