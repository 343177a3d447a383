"""The peers hydride is measured against, beside LLVM 22's own lowering of
the same MLIR:

- clang: the suite's scalar C reference as a user writes it, compiled by
  clang-22 -O3 for the same CPU and auto-vectorized as clang sees fit;
- Halide: the pipelines of bench/halide/, compiled ahead of time by Halide
  21 (from the project's .venv) for the same target.

A peer that cannot be built here (no .venv, Halide not importable) is left
out with the reason, and the run goes on with the other columns."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
HALIDE_BUILD = os.path.join(ROOT, "bench", "halide", "build.py")

sys.path.insert(0, os.path.join(ROOT, "bench", "halide"))
import harness  # noqa: E402
import targets as halide_targets  # noqa: E402  (plain data: does not import Halide)


def clang_source(k):
    """The reference as a separate translation unit, exported as clang_<name>."""
    body = k.c_reference.replace(f"static void ref_{k.name}(", f"void clang_{k.name}(", 1)
    return "#include <stdint.h>\n" + body


class Halide:
    """The Halide column of one run: every pipeline built once, up front."""

    def __init__(self, bench_target, host, mca_cpu, work, kernels, vector_bits=None, jobs=1):
        self.missing = None
        self.entries = {}
        self.include = None
        self.runtime = None
        if bench_target in halide_targets.TARGETS:
            self.target = halide_targets.TARGETS[bench_target]
        else:
            self.target = halide_targets.for_x86_host(set(host["features"]), mca_cpu)
        if not os.path.exists(VENV_PYTHON):
            self.missing = f"no {os.path.relpath(VENV_PYTHON, ROOT)} (scripts/setup installs Halide there)"
            return
        probe = subprocess.run([VENV_PYTHON, "-c", "import halide, os; print(os.path.dirname(halide.__file__))"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            self.missing = "Halide does not import in .venv: " + (probe.stderr.strip().splitlines() or ["?"])[-1]
            return
        self.include = os.path.join(probe.stdout.strip(), "include")
        out = os.path.join(work, "halide")
        p = subprocess.run([VENV_PYTHON, HALIDE_BUILD, "--halide-target", self.target.halide, "--out", out,
                            "--only", ",".join(k.name for k in kernels), f"--jobs={jobs}"]
                           + ([f"--vector-bits={vector_bits}"] if vector_bits else []), capture_output=True, text=True)
        if p.returncode != 0:
            self.missing = f"bench/halide/build.py failed (exit {p.returncode}): {p.stderr[-2000:]}"
            return
        with open(os.path.join(out, "manifest.json")) as f:
            manifest = json.load(f)
        self.runtime = manifest["runtime"]
        self.entries = manifest["kernels"]

    def entry(self, name):
        """The kernel's manifest entry; raises if its pipeline did not build."""
        e = self.entries.get(name)
        if e is None:
            raise KeyError(f"no Halide pipeline was built for {name}")
        if "error" in e:
            raise RuntimeError(f"its Halide pipeline did not build: {e['error']}")
        return e

    def path(self, name):
        """The kernel's Halide path for the harness, its assembly, its object
        file and its compile time; raises as `entry` does."""
        e = self.entry(name)
        with open(e["asm"]) as f:
            asm = f.read()
        return harness.Path("halide", e["function"], "halide", e["args"]), asm, os.path.abspath(e["object"]), e["compile_s"]

    def describe(self):
        return f"Halide 21 for {self.target.halide}" if not self.missing else f"Halide column missing: {self.missing}"

