"""The registered ISAs, in the registry's order, and the facts scripts read
from their folders: each fact is a file at the same place in every ISA's
folder, so a new ISA's facts are files in its new folders.

  lit-tests/Run/<isa>/targets.toml   the targets the execution tests, the
                                     differential fuzzer and the lowering
                                     bounds run, and how each is built and run

As a command, prints one line per item for shell scripts:

  isas.py names                      the registered ISAs
  isas.py targets                    every run target
  isas.py fuzz-ci                    COUNT TARGET...: targets scripts/test
                                     fuzzes with COUNT programs each
  isas.py native                     the ISA this host executes natively
"""
import functools
import json
import os
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HYDRIDE = os.path.join(ROOT, "target", "release", "hydride")
TARGETS = os.path.join("lit-tests", "Run", "{isa}", "targets.toml")


@functools.cache
def names():
    """The registered ISAs in the registry's order, as `hydride isa --help`
    lists them (its subcommands, less clap's `help`)."""
    out = subprocess.run([HYDRIDE, "isa", "--help"], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    found = []
    for line in lines[lines.index("Commands:") + 1:]:
        if not line.strip():
            break
        name = line.split()[0]
        if name != "help":
            found.append(name)
    return tuple(found)


def per_isa(pattern):
    """(isa, path) for every registered ISA that has the file `pattern`
    (relative to the repository, `{isa}` standing for its name)."""
    paths = [(isa, os.path.join(ROOT, pattern.format(isa=isa))) for isa in names()]
    return [(isa, path) for isa, path in paths if os.path.exists(path)]


def targets():
    """Every run target, ISA by ISA in the registry's order, each a dict of
    its targets.toml entry with its `isa`."""
    found = []
    for isa, path in per_isa(TARGETS):
        with open(path, "rb") as f:
            found.extend(dict(t, isa=isa) for t in tomllib.load(f)["target"])
    return found


def native():
    """The ISA this host executes natively: that of the targets `hydride
    host --json` says what the host lacks of."""
    host = json.loads(subprocess.run([HYDRIDE, "host", "--json"], check=True, capture_output=True, text=True).stdout)
    found = {t["isa"] for t in targets() if t["name"] in host["lacks"]}
    if len(found) != 1:
        sys.exit(f"isas.py: no one ISA of the host's targets ({', '.join(host['lacks'])}) in any targets.toml")
    return found.pop()


def fuzz_ci_groups():
    """[(count, [target, ...])]: the run targets grouped by the programs
    scripts/test fuzzes at each, in order of first appearance."""
    groups = {}
    for t in targets():
        groups.setdefault(t["ci_fuzz_count"], []).append(t["name"])
    return list(groups.items())


def main(argv):
    if argv == ["names"]:
        print("\n".join(names()))
    elif argv == ["targets"]:
        print("\n".join(t["name"] for t in targets()))
    elif argv == ["native"]:
        print(native())
    elif argv == ["fuzz-ci"]:
        for count, group in fuzz_ci_groups():
            print(count, *group)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
