"""Runs a command under a wall-clock and a memory bound and fails if it
exceeds either (or fails itself); prints its time and peak memory.

  bounded.py SECONDS MEGABYTES -- COMMAND...
"""
import resource
import subprocess
import sys
import time

seconds, megabytes = float(sys.argv[1]), int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]


def limit():
    cap = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


start = time.monotonic()
try:
    p = subprocess.run(command, preexec_fn=limit, timeout=seconds, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
except subprocess.TimeoutExpired:
    sys.exit(f"bounded: over {seconds} s: {' '.join(command[:2])}")
elapsed = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
sys.stdout.buffer.write(p.stdout)
sys.stderr.buffer.write(p.stderr)
if p.returncode != 0:
    sys.exit(f"bounded: exit {p.returncode}")
print(f"// bounded: {elapsed:.1f} s (bound {seconds:g}), peak {peak} MB (bound {megabytes})", file=sys.stderr)
