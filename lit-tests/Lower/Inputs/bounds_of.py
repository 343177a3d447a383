"""Lowers one sized program (scripts/fuzzing/sized.py) at each target
under the bounds tests' limits, and prints, per target, the time and peak
memory, the ops of the result with their counts, and each distinct remark
of the transformations around synthesis (locations dropped), for FileCheck.

  bounds_of.py IDIOM wide|long SIZE HYDRIDE_OPT TARGET...

Fails when a run exceeds 20 s or 1 GB (Inputs/bounded.py) or fails.
Long programs run with block-ms=2000: the synthesis's own bound on a block.
"""
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(os.path.dirname(here)))
idiom, mode, size, opt, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
with tempfile.TemporaryDirectory() as work:
    source = os.path.join(work, "in.mlir")
    with open(source, "w") as f:
        subprocess.run([sys.executable, os.path.join(repo, "scripts", "fuzzing", "sized.py"), idiom, mode, size],
                       stdout=f, check=True)
    failed = False
    for target in targets:
        cache = tempfile.mkdtemp(dir=work)
        pipeline = (f"builtin.module(func.func(lower-to-autollvm{{target={target} remarks=true block-ms=2000 "
                    f"cache-dir={cache}}}))")
        run = subprocess.run([sys.executable, os.path.join(here, "bounded.py"), "20", "1024", "--", opt, source,
                              f"--pass-pipeline={pipeline}", "-o", os.path.join(work, "out.mlir")],
                             capture_output=True, text=True)
        print(f"== {idiom} {mode} {size} at {target}")
        remarks = set()
        for line in run.stderr.splitlines():
            m = re.search(r"remark: (hydride-[a-z-]+: .*)", line)
            if m and "searched" not in m.group(1):
                remarks.add(re.sub(r"\d+ more remarks", "N more remarks", m.group(1)))
            if line.startswith("// bounded:") or line.startswith("bounded:"):
                print(line.lstrip("/ "))
        if run.returncode == 0:
            counts = {}
            with open(os.path.join(work, "out.mlir")) as f:
                for name in re.findall(r"(?:= |^\s+)([a-z_]+\.[a-z_.]+)", f.read(), re.M):
                    counts[name] = counts.get(name, 0) + 1
            print("ops: " + " ".join(f"{n}={c}" for n, c in sorted(counts.items())))
        for r in sorted(remarks):
            print(r)
        failed |= run.returncode != 0
    sys.exit(1 if failed else 0)
