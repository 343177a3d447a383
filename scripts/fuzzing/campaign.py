"""`scripts/fuzz`: a fuzzing campaign over the targets this host runs, its
report, and the regression tests it keeps; `--replay` checks one kept test."""

import argparse
import json
import os
import re
import sys
import tempfile
import time

import differential
import isas
import minimize
import programs

ROOT = differential.ROOT
REGRESSIONS = os.path.join(ROOT, "lit-tests", "Run", "fuzz")
# Per target (its ISA's targets.toml, scripts/isas.py): the register width
# of a target that leaves narrower vectors to LLVM (its programs are made at
# least this wide, so that rewrites fire there too), and what a kept test
# needs of the host to run (a lit feature).
MIN_BITS = {t["name"]: t["fuzz_min_bits"] for t in isas.targets() if "fuzz_min_bits" in t}
REQUIRES = {t["name"]: t["lit_feature"] for t in isas.targets()}


def parse(argv):
    ap = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="the program stream (default 1)")
    ap.add_argument("--count", type=int, help="programs per target")
    ap.add_argument("--seconds", type=float, help="time per target (with --count, whichever ends first)")
    ap.add_argument("--target", action="append", help="a target (repeatable; default: every one this host runs)")
    ap.add_argument("--batch", type=int, default=16, help="programs compiled together (default 16)")
    ap.add_argument("--keep", default=REGRESSIONS, help="where minimized failures go as lit tests")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"), help="where the report goes (fuzz-TARGET.json)")
    ap.add_argument("--replay", metavar="FILE", help="check the program of a kept test; exit 1 if it still fails")
    ap.add_argument("--sized", action="store_true",
                    help="wide (up to 65,536 lanes) and long (up to 10,000 ops) programs (scripts/fuzzing/sized.py), "
                         "each lowered alone within --seconds-each and --megabytes-each; reports time and peak "
                         "memory per program (lowering only: not executed)")
    ap.add_argument("--seconds-each", type=float, default=20.0, help="with --sized: the time bound per program")
    ap.add_argument("--megabytes-each", type=int, default=1024, help="with --sized: the memory bound per program")
    ap.add_argument("--block-ms", type=int, default=2000,
                    help="with --sized: lower-to-autollvm's block-ms, the synthesis's own time bound per block "
                         "(default 2000)")
    args = ap.parse_args(argv)
    if not args.replay and args.count is None and args.seconds is None:
        ap.error("give --count or --seconds (or --replay FILE)")
    return args


class Replayed:
    """A kept test's program."""

    def __init__(self, path):
        with open(path) as f:
            text = f.read()
        self.text = "\n".join(line for line in text.splitlines() if not line.startswith("//")) + "\n"
        m = re.search(r"func\.func @([A-Za-z0-9_]+)", self.text)
        if not m:
            raise SystemExit(f"fuzz: {path}: no func.func")
        self.name = m.group(1)

    def mlir(self):
        return self.text


def replay(args):
    found, skipped = differential.targets(args.target)
    if not found:
        print(f"fuzz: no target to replay on: {skipped}")
        return 1
    failed = 0
    for target in found:
        with tempfile.TemporaryDirectory() as work:
            outcome = differential.check([Replayed(args.replay)], target, work, os.path.join(work, "cache"))
        verdict, detail = next(iter(outcome.verdicts.values()))
        print(f"{target.name}: {verdict}{': ' + detail if detail else ''}")
        # LLVM's own path failing (to build, or against itself at -O0) is
        # not hydride's failure.
        failed += verdict not in ("ok", "llvm")
    return 1 if failed else 0


def keep(program, original, target, seed, index, verdict, detail, directory):
    """A minimized failure as a lit test that fails while the bug is there."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{target.name}-seed{seed}-{program.name}.mlir")
    detail_line = " ".join(detail.split())[:300]
    with open(path, "w") as f:
        f.write(f"// REQUIRES: {REQUIRES[target.name]}\n"
                f"// RUN: %fuzz --replay %s --target {target.name}\n"
                f"// Found by `scripts/fuzz --seed {seed}` (program {index}) at {target.name}: {verdict}: "
                f"{detail_line}\n"
                f"// Minimized from {len(original.lines)} to {len(program.lines)} ops.\n"
                f"{program.mlir()}")
    return path


def campaign(args, target, work):
    started = time.monotonic()
    report = {"target": target.name, "seed": args.seed, "programs": 0, "windows_rewritten": 0, "by_class": {},
              "idioms": {}, "mismatches": [], "crashes": [], "timeouts": [], "llvm_failures": [], "kept": []}
    cache = os.path.join(work, "cache")
    index = 0

    def over():
        if args.count is not None and index >= args.count:
            return True
        return args.seconds is not None and time.monotonic() - started >= args.seconds

    while not over():
        n = args.batch if args.count is None else min(args.batch, args.count - index)
        batch = [programs.generate(args.seed, index + k, MIN_BITS.get(target.name, 64)) for k in range(n)]
        index += n
        outcome = differential.check(batch, target, work, cache)
        report["programs"] += len(batch)
        report["windows_rewritten"] += outcome.rewritten
        for k, v in outcome.by_class.items():
            report["by_class"][k] = report["by_class"].get(k, 0) + v
        for p in batch:
            for idiom in p.idioms:
                report["idioms"][idiom] = report["idioms"].get(idiom, 0) + 1
            verdict, detail = outcome.verdicts[p.name]
            if verdict == "ok":
                continue
            print(f"  {p.name}: {verdict}: {' '.join(detail.split())[:200]}", flush=True)
            entry = {"program": int(p.name[1:]), "detail": detail[:2000]}
            report[{"mismatch": "mismatches", "crash": "crashes", "timeout": "timeouts",
                    "llvm": "llvm_failures"}[verdict]].append(entry)
            if verdict in ("timeout", "llvm"):
                continue  # kept in the report; a minimization would take a timeout per try

            def fails(candidate, verdict=verdict):
                return differential.check([candidate], target, work, cache).verdicts[candidate.name][0] == verdict

            small, tries = minimize.minimize(p, fails)
            entry["kept"] = keep(small, p, target, args.seed, int(p.name[1:]), verdict, detail, args.keep)
            entry["minimized_ops"] = len(small.lines)
            report["kept"].append(entry["kept"])
            print(f"    minimized to {len(small.lines)} ops in {tries} tries: {entry['kept']}", flush=True)
        print(f"{target.name}: {report['programs']} programs, {report['windows_rewritten']} windows rewritten, "
              f"{len(report['mismatches'])} mismatches, {len(report['crashes'])} crashes, "
              f"{len(report['timeouts'])} timeouts, {len(report['llvm_failures'])} LLVM's own "
              f"({time.monotonic() - started:.0f} s)", flush=True)
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


def sized_campaign(args, target, work):
    """Sized programs lowered one at a time under the per-program bounds."""
    import sized
    bounds = load_bounds()
    bounds.SECONDS, bounds.MEGABYTES = args.seconds_each, args.megabytes_each
    started = time.monotonic()
    report = {"target": target, "seed": args.seed, "mode": "sized", "block_ms": args.block_ms,
              "seconds_each": args.seconds_each,
              "megabytes_each": args.megabytes_each, "programs": []}
    index = 0
    while not ((args.count is not None and index >= args.count)
               or (args.seconds is not None and time.monotonic() - started >= args.seconds)):
        shape, text = sized.random_program(args.seed, index)
        seconds, mb, error = bounds.lower(text, target, work, args.block_ms)
        entry = {"program": index, "shape": shape, "seconds": round(seconds, 2), "peak_mb": mb}
        if error or mb > args.megabytes_each:
            entry["over"] = error or f"{mb} MB"
        report["programs"].append(entry)
        print(f"  s{index} ({shape}): {seconds:.2f} s, {mb} MB{' OVER: ' + entry['over'] if 'over' in entry else ''}",
              flush=True)
        index += 1
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


def load_bounds():
    """scripts/bounds as a module (its lowering under the bounds)."""
    import importlib.machinery
    import importlib.util
    path = os.path.join(ROOT, "scripts", "bounds")
    loader = importlib.machinery.SourceFileLoader("bounds", path)
    spec = importlib.util.spec_from_loader("bounds", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def sized_main(args):
    """Lowering needs no host support: every run target (scripts/isas.py)
    unless named."""
    failures = 0
    os.makedirs(args.out, exist_ok=True)
    for target in args.target or [t["name"] for t in isas.targets()]:
        print(f"== sized programs at {target}, seed {args.seed}", flush=True)
        with tempfile.TemporaryDirectory() as work:
            report = sized_campaign(args, target, work)
        path = os.path.join(args.out, f"fuzz-sized-{target}.json")
        with open(path, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
        over = [p for p in report["programs"] if "over" in p]
        slowest = max(report["programs"], key=lambda p: p["seconds"], default=None)
        largest = max(report["programs"], key=lambda p: p["peak_mb"], default=None)
        print(f"{target}: {len(report['programs'])} sized programs in {report['seconds']} s; slowest "
              f"{slowest['seconds'] if slowest else 0} s (s{slowest['program'] if slowest else '-'}), largest "
              f"{largest['peak_mb'] if largest else 0} MB; {len(over)} over {args.seconds_each:g} s or "
              f"{args.megabytes_each} MB; report {path}")
        failures += len(over)
    return 1 if failures else 0


def main(argv):
    args = parse(argv)
    if args.replay:
        return replay(args)
    if args.sized:
        return sized_main(args)
    found, skipped = differential.targets(args.target)
    for name, why in skipped.items():
        print(f"fuzz: {name} skipped: {why}")
    if not found:
        print("fuzz: no target this host runs")
        return 1
    failures = 0
    os.makedirs(args.out, exist_ok=True)
    for target in found:
        print(f"== {target.name}, seed {args.seed}", flush=True)
        with tempfile.TemporaryDirectory() as work:
            report = campaign(args, target, work)
        path = os.path.join(args.out, f"fuzz-{target.name}.json")
        with open(path, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
        top = sorted(report["by_class"].items(), key=lambda kv: -kv[1])[:12]
        print(f"{target.name}: {report['programs']} programs in {report['seconds']} s; {report['windows_rewritten']} "
              f"windows rewritten; rewrites by class (autollvm ops): "
              f"{', '.join(f'{k} {v}' for k, v in top) or 'none'}; {len(report['mismatches'])} mismatches, "
              f"{len(report['crashes'])} crashes, {len(report['timeouts'])} timeouts; "
              f"{len(report['llvm_failures'])} failures of LLVM's own path, counted apart; report {path}")
        failures += len(report["mismatches"]) + len(report["crashes"]) + len(report["timeouts"])
    return 1 if failures else 0
