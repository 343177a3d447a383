"""Halide's code for a target this host does not run (AArch64 NEON with
dot product and i8mm, Hexagon HVX 128-byte): every suite pipeline compiled
ahead of time for it, and per kernel the hot loop's instructions and its
cost per iteration (llvm-mca cycles on the target's named core; packets on
Hexagon, which llvm-mca does not model). Writes
results/halide-<target>.{csv,md}. A pipeline that does not build fails the
run.

Usage: python3 bench/cross.py --target aarch64-neon-dotprod-i8mm|hexagon-hvx128 [--only K,...] [--out DIR]
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402
from asm import cycles_per_iteration, hot_loop  # noqa: E402

COLUMNS = ["kernel", "target", "halide_target", "insts_halide", "cycles_halide", "cycles_measure", "compile_halide_s"]


def main():
    cross = [t for t in peers.halide_targets.TARGETS if not t.startswith("x86")]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True, choices=cross)
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    ap.add_argument("--out", default=os.path.join(peers.ROOT, "results"), help="results folder (default results/)")
    a = ap.parse_args()
    target = peers.halide_targets.TARGETS[a.target]
    measure = f"llvm-mca -mcpu={target.mca_cpu}" if target.mca_cpu else "packets"
    with tempfile.TemporaryDirectory() as work:
        args = [peers.VENV_PYTHON, peers.HALIDE_BUILD, "--target", a.target, "--out", work] + (["--only", a.only] if a.only else [])
        if not os.path.exists(peers.VENV_PYTHON):
            sys.exit(f"no {peers.VENV_PYTHON}: run scripts/setup (it installs Halide there)")
        subprocess.run(args, check=True)
        with open(os.path.join(work, "manifest.json")) as f:
            manifest = json.load(f)
        rows, failed = [], []
        for name, entry in manifest["kernels"].items():
            if "error" in entry:
                failed.append(f"{name}: {entry['error']}")
                continue
            with open(entry["asm"]) as f:
                text = f.read()
            rows.append({"kernel": name, "target": a.target, "halide_target": target.halide,
                         "insts_halide": len(hot_loop(text)),
                         "cycles_halide": cycles_per_iteration(text, target.mca_cpu, target.mca_triple),
                         "cycles_measure": measure, "compile_halide_s": entry["compile_s"]})
    os.makedirs(a.out, exist_ok=True)
    stem = os.path.join(a.out, f"halide-{a.target}")
    with open(stem + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows([[f"{r[c]:.3f}" if isinstance(r[c], float) else r[c] for c in COLUMNS] for r in rows])
    md = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    md += ["| " + " | ".join(f"{r[c]:.3f}" if isinstance(r[c], float) else str(r[c]) for c in COLUMNS) + " |" for r in rows]
    with open(stem + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    print(f"\nwrote {stem}.csv and {stem}.md ({len(rows)} kernels, cost: {measure})")
    if failed:
        sys.exit("pipelines that did not build:\n  " + "\n  ".join(failed))


if __name__ == "__main__":
    main()
