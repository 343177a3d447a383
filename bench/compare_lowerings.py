"""Every suite kernel lowered by hydride for each bench target, cold memo,
to LLVM IR, in its direct form and its scheduled form (the target's vector
width): one file per kernel, form and target under --out, and with
--against, a byte-for-byte comparison with an earlier run. See
scripts/compare-lowerings."""

import argparse
import concurrent.futures
import filecmp
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scheduled  # noqa: E402
import suite  # noqa: E402
import qemu_bench  # noqa: E402
from run import Failure, hydride_lower, select, to_llvm_ir, x86_vector_bits  # noqa: E402

# lower-to-autollvm's target and the ISA whose dialect it lowers through.
TARGETS = {
    "x86-avx512": "x86",
    "x86-avx2": "x86",
    "aarch64-neon-dotprod-i8mm": "arm",
    "hexagon-hvx128": "hvx",
}


def vector_bits(target):
    """The vector width of `target`'s scheduled forms, as the benchmark's."""
    cross = qemu_bench.TARGETS.get(target)
    return cross.vector_bits if cross else x86_vector_bits(target)


def file_name(kernel, form):
    return f"{kernel.name}.ll" if form == "direct" else f"{kernel.name}.{form}.ll"


def lower_one(kernel, form, target, out, scratch):
    """Writes `out/target/kernel[.form].ll`; returns (name, seconds, error or None)."""
    name = f"{target}/{file_name(kernel, form)[:-3]}"
    began = time.perf_counter()
    try:
        cache = tempfile.mkdtemp(dir=scratch, prefix="memo-")
        ll = to_llvm_ir(hydride_lower(kernel.mlir, cache, target, TARGETS[target]))
    except Failure as e:
        return name, time.perf_counter() - began, str(e)
    with open(os.path.join(out, target, file_name(kernel, form)), "w") as f:
        f.write(ll)
    return name, time.perf_counter() - began, None


def compare(out, against, names):
    differ, missing = [], []
    for name in names:
        new, old = os.path.join(out, f"{name}.ll"), os.path.join(against, f"{name}.ll")
        if not os.path.exists(old):
            missing.append(name)
        elif not os.path.exists(new) or not filecmp.cmp(new, old, shallow=False):
            differ.append(name)
    return differ, missing


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", required=True, help="directory for the LLVM IR, one folder per target")
    p.add_argument("--against", help="an earlier --out to compare with, byte for byte")
    p.add_argument("--only", help="comma-separated kernel names")
    p.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets (default: all four)")
    p.add_argument("--form", default="both", choices=[*scheduled.FORMS, "both"],
                   help="the kernels' direct forms, their scheduled forms, or both (default)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="lowerings run at once")
    a = p.parse_args()
    targets = a.targets.split(",")
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit(f"compare-lowerings: unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    kernels = select(suite.all_kernels(), a.only)
    for t in targets:
        os.makedirs(os.path.join(a.out, t), exist_ok=True)
    work = [(k, form, t) for t in targets for form in scheduled.chosen(a.form)
            for k in scheduled.in_form(kernels, form, vector_bits(t))]
    failed, names = [], []
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = [pool.submit(lower_one, k, form, t, a.out, scratch) for k, form, t in work]
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            name, seconds, error = job.result()
            names.append(name)
            print(f"[{done}/{len(work)}] {name}: {'FAILED' if error else 'lowered'} in {seconds:.1f} s", flush=True)
            if error:
                failed.append((name, error))
    for name, error in failed:
        print(f"compare-lowerings: {name} did not lower:\n{error}", file=sys.stderr)
    if a.against:
        differ, missing = compare(a.out, a.against, sorted(names))
        for name in differ:
            print(f"compare-lowerings: {name}: LLVM IR differs from {a.against}", file=sys.stderr)
        for name in missing:
            print(f"compare-lowerings: {name}: not in {a.against}", file=sys.stderr)
        same = len(names) - len(differ) - len(missing)
        print(f"{same} of {len(names)} lowerings byte-identical to {a.against}")
        if differ or missing:
            sys.exit(1)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
