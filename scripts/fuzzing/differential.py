"""Runs programs through hydride's pipeline and through LLVM's own lowering
for one target, both compiled for it and run on the same random and edge
inputs by the differential harness of the execution tests
(lit-tests/Run/Inputs: differential_main.c, differential.py,
mem_wrappers.py), natively or under qemu-user.

What can go wrong is reported per program: the pass failing or crashing
(`crash`), running out of time (`timeout`), or the two paths computing
different outputs (`mismatch`); where LLVM's own path fails to compile
(clang's code generator runs away on some vectors of odd widths, a
freestanding link lacks a division routine), or where a mismatch goes
away against LLVM's path compiled at -O0 (LLVM's -O2 code for its own
path is wrong: llc 22 drops the `+ 16384` of `(sext(x) * zext(x) + 16384)
>> 16` at one target), `llvm`, which is LLVM's problem and counted apart.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import isas  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLVM = "/usr/lib/llvm-22/bin"
PLUGIN = os.path.join(ROOT, "target", "release", "libhydride.so")
HYDRIDE = os.path.join(ROOT, "target", "release", "hydride")
RUN_INPUTS = os.path.join(ROOT, "lit-tests", "Run", "Inputs")
MEM_WRAPPERS = os.path.join(ROOT, "lit-tests", "Run", "Inputs", "mem_wrappers.py")
TO_LLVM = ["--lower-vector-multi-reduction", "--convert-vector-to-llvm", "--convert-arith-to-llvm",
           "--convert-ub-to-llvm", "--convert-func-to-llvm", "--reconcile-unrealized-casts"]
FREESTANDING = ["-O2", "-ffreestanding", "-nostdlib", "-static", "-Wno-override-module"]


@dataclass
class Target:
    name: str  # lower-to-autollvm's target
    isa: str
    compile: list  # clang command prefix for the harness and both paths
    runner: list  # how the binary is started ([] natively)
    sources: list = field(default_factory=list)  # linked into every harness (routines the target lacks)


def host():
    return json.loads(subprocess.run([HYDRIDE, "host", "--json"], check=True, capture_output=True, text=True).stdout)


def targets(wanted=None):
    """The targets this host can run (natively or under qemu-user): `wanted`
    (names) or all of them, in the order of their ISAs' targets.toml
    (scripts/isas.py); with the reason for each one left out."""
    h = host()
    found, skipped = [], {}
    for t in isas.targets():
        if t.get("native"):
            lacking = h["lacks"].get(t["name"], ["?"])
            if lacking:
                skipped[t["name"]] = "this host lacks " + ", ".join(lacking)
                continue
            compile_ = ["clang-22", *h["clang_flags"], *FREESTANDING, *t.get("link_flags", [])]
        elif shutil.which(t["runner"][0]):
            compile_ = ["clang-22", *t["clang_flags"], *FREESTANDING, *t.get("link_flags", [])]
        else:
            skipped[t["name"]] = f"{t['runner'][0]} is not installed"
            continue
        sources = [os.path.join(ROOT, s) for s in t.get("sources", [])]
        found.append(Target(t["name"], t["isa"], compile_, t.get("runner", []), sources))
    if wanted:
        unknown = set(wanted) - {t.name for t in found} - set(skipped)
        if unknown:
            sys.exit(f"fuzz: unknown target(s) {', '.join(sorted(unknown))}")
        found = [t for t in found if t.name in wanted]
        skipped = {n: why for n, why in skipped.items() if n in wanted}
    return found, skipped


@dataclass
class Outcome:
    """What one batch gave: per program, `ok`, `mismatch`, `crash` or `timeout`
    (with the evidence), and the rewrites the pass made."""
    verdicts: dict = field(default_factory=dict)  # name -> (verdict, detail)
    rewritten: int = 0
    by_class: dict = field(default_factory=dict)


class Step(Exception):
    def __init__(self, verdict, detail):
        super().__init__(detail)
        self.verdict = verdict
        self.detail = detail


def bounded(args, stdin, cwd, timeout):
    """`args` run to completion or, past `timeout`, killed with every process
    it started (clang's driver leaves its compiler running otherwise)."""
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          cwd=cwd, start_new_session=True) as p:
        try:
            out, err = p.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise
        return subprocess.CompletedProcess(args, p.returncode, out, err)


def _run(args, stdin=None, cwd=None, timeout=None, verdict="crash"):
    try:
        p = bounded(args, stdin, cwd, timeout)
    except subprocess.TimeoutExpired:
        raise Step("timeout", f"{os.path.basename(args[0])} ran over {timeout} s")
    if p.returncode != 0:
        # The diagnostics, not the remarks around them.
        errors = [l for l in p.stderr.splitlines() if "error:" in l or "panicked" in l or "Assertion" in l]
        why = "\n".join(errors[:5]) if errors else p.stderr[-3000:]
        raise Step(verdict, f"{os.path.basename(args[0])} exit {p.returncode}: {why}")
    return p.stdout, p.stderr


def lower(module, target, cache, timeout):
    """hydride's lowering to the target's dialect and on to the LLVM dialect;
    the rewrites it made (from its remarks)."""
    lowered, remarks = _run([f"{LLVM}/mlir-opt", f"--load-dialect-plugin={PLUGIN}", f"--load-pass-plugin={PLUGIN}",
                             f"--pass-pipeline=builtin.module(lower-to-autollvm{{target={target.name} cache-dir={cache} "
                             f"remarks=true}})"], module, timeout=timeout)
    by_class = {}
    for op in re.findall(r"\bautollvm\.([a-z0-9_]+)", lowered):
        by_class[op] = by_class.get(op, 0) + 1
    rewritten = sum(int(n) for n in re.findall(r"; (\d+) rewritten \(", remarks))
    for what in ("computed in place", "taken column by column", "as a dot product"):
        rewritten += len(re.findall(f"{what}.*proved equal", remarks))
    out, _ = _run([f"{LLVM}/mlir-opt", f"--load-dialect-plugin={PLUGIN}", f"--load-pass-plugin={PLUGIN}",
                   f"--pass-pipeline=builtin.module(convert-autollvm-to-{target.isa},convert-hydride-{target.isa}-to-llvm)"],
                  lowered, timeout=timeout)
    return out, rewritten, by_class


def llvm_ir(module, prefix=""):
    ir, _ = _run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], _run([f"{LLVM}/mlir-opt", *TO_LLVM], module)[0])
    if prefix:
        ir = re.sub(r"^define (.*?) @([A-Za-z0-9_]+)\(", lambda m: f"define {m.group(1)} @{prefix}{m.group(2)}(", ir,
                    flags=re.M)
    return ir


def link(target, work, paths, exe, timeout):
    """The differential harness (its main, the input table in `work`) with
    the two paths' files `paths`, hydride's first, built as `exe`."""
    _run([*target.compile, "-I", RUN_INPUTS, os.path.join(RUN_INPUTS, "differential_main.c"), "table.c", *paths,
          *target.sources, "-o", exe], cwd=work, timeout=timeout)


def run_batch(programs, target, work, cache, timeout=60):
    """Both paths of `programs` (one module), compiled and compared."""
    module = "\n".join(p.mlir() for p in programs)
    outcome = Outcome()
    # The pass bounds each block (block-ms, 20 s by default): a function's time.
    lowered, outcome.rewritten, outcome.by_class = lower(module, target, cache, 30 + 25 * len(programs))
    files = {}
    plain = llvm_ir(module)
    files["h.ll"] = _run([sys.executable, MEM_WRAPPERS], llvm_ir(lowered, "hydride_"))[0]
    files["l.ll"] = _run([sys.executable, MEM_WRAPPERS], plain)[0]
    files["table.c"] = _run([sys.executable, os.path.join(RUN_INPUTS, "differential.py")], plain)[0]
    for name, text in files.items():
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    exe = os.path.join(work, "differential")
    try:
        link(target, work, ["h.ll", "l.ll"], exe, timeout)
    except Step as failed:
        # Whose failure: the harness built with LLVM's path in both places
        # fails the same way (a runaway code generator, say), and
        # hydride has no part in it.
        with open(os.path.join(work, "ll_as_h.ll"), "w") as f:
            f.write(_run([sys.executable, MEM_WRAPPERS], llvm_ir(module, "hydride_"))[0])
        try:
            link(target, work, ["ll_as_h.ll", "l.ll"], exe, timeout)
        except Step as alone:
            raise Step("llvm", f"LLVM's own path fails to build ({alone.verdict}): {alone.detail}")
        raise failed
    try:
        p = bounded([*target.runner, exe], None, None, timeout)
    except subprocess.TimeoutExpired:
        raise Step("timeout", f"the harness ran over {timeout} s")
    differing = dict(re.findall(r"^kernel (\S+): (\d+) inputs differ", p.stdout, flags=re.M))
    if p.returncode != 0 and not differing:
        raise Step("crash", f"the harness failed (exit {p.returncode}): {p.stdout[-1000:]}{p.stderr[-1000:]}")
    still = against_unoptimized(target, work, timeout, set(differing)) if differing else set()
    for prog in programs:
        if prog.name in differing and prog.name in still:
            outcome.verdicts[prog.name] = ("mismatch", f"{differing[prog.name]} of 1000 inputs differ")
        elif prog.name in differing:
            outcome.verdicts[prog.name] = (
                "llvm", f"LLVM's own path at -O2 differs from hydride's on {differing[prog.name]} of 1000 inputs, "
                        "and from itself at -O0, which agrees with hydride's: LLVM miscompiles its own path")
        else:
            outcome.verdicts[prog.name] = ("ok", "")
    return outcome


def against_unoptimized(target, work, timeout, differing):
    """The second opinion on the programs in `differing`: hydride's path
    against LLVM's compiled at -O0, where LLVM's code generator combines
    little. The programs that still differ; all of them if the harness
    does not build or run to its verdict."""
    exe = os.path.join(work, "differential_O0")
    try:
        _run([*target.compile, "-O0", "-c", "l.ll", "-o", "l_O0.o"], cwd=work, timeout=timeout)
        link(target, work, ["h.ll", "l_O0.o"], exe, timeout)
        p = bounded([*target.runner, exe], None, None, timeout)
    except (Step, subprocess.TimeoutExpired):
        return differing
    if p.returncode == 0 and re.search(r"^all \d+ kernels agree", p.stdout, flags=re.M):
        return set()
    # The harness names the kernels that differ and exits non-zero; no
    # names, it did not reach its verdict.
    still = set(re.findall(r"^kernel (\S+): \d+ inputs differ", p.stdout, flags=re.M))
    return still or differing


def check(programs, target, work, cache, timeout=60):
    """`run_batch`, and where the batch as a whole fails (crash, timeout),
    each program alone, so the failure is pinned on the programs that fail."""
    try:
        return run_batch(programs, target, work, cache, timeout)
    except Step as whole:
        if len(programs) == 1:
            outcome = Outcome()
            outcome.verdicts[programs[0].name] = (whole.verdict, whole.detail)
            return outcome
    outcome = Outcome()
    for p in programs:
        one = check([p], target, work, cache, timeout)
        outcome.verdicts.update(one.verdicts)
        outcome.rewritten += one.rewritten
        for k, n in one.by_class.items():
            outcome.by_class[k] = outcome.by_class.get(k, 0) + n
    return outcome
