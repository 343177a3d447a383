"""The registered ISAs, in the registry's order, and the facts scripts read
from their folders: each fact is a file at the same place in every ISA's
folder, so a new ISA's facts are files in its new folders.

  lit-tests/Run/<isa>/targets.toml   the targets the execution tests, the
                                     differential fuzzer and the lowering
                                     bounds run, and how each is built and run
  lit-tests/Run/<isa>/narrower-host.toml
                                     the features scripts/test withholds to
                                     run again as a narrower host of the ISA
  isa-specs/<isa>/cross-check.toml   a check of the ISA's vendor data that
                                     scripts/test runs beside regeneration

As a command, prints one line per item for shell scripts:

  isas.py names                      the registered ISAs
  isas.py targets                    every run target
  isas.py fuzz-ci                    COUNT TARGET...: targets scripts/test
                                     fuzzes with COUNT programs each
  isas.py native                     the ISA this host executes natively
  isas.py cross-checks               ISA<TAB>NAME<TAB>OPTIONS: each
                                     cross-check.toml
  isas.py narrower-host              ISA<TAB>FEATURE<TAB>FEATURE_NAME<TAB>
                                     HOST_NAME<TAB>WITHHOLD<TAB>REPORT: the
                                     native ISA's narrower-host.toml, if any
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
NARROWER_HOST = os.path.join("lit-tests", "Run", "{isa}", "narrower-host.toml")
CROSS_CHECK = os.path.join("isa-specs", "{isa}", "cross-check.toml")


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
        found.extend(dict(t, isa=isa) for t in load(path)["target"])
    return found


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def native():
    """The ISA this host executes natively: that of the targets `hydride
    host --json` says what the host lacks of (None if no one ISA's)."""
    host = json.loads(subprocess.run([HYDRIDE, "host", "--json"], check=True, capture_output=True, text=True).stdout)
    found = {t["isa"] for t in targets() if t["name"] in host["lacks"]}
    return found.pop() if len(found) == 1 else None


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
        isa = native()
        if isa is None:
            sys.exit("isas.py: the host's targets (hydride host --json) are no one ISA's in any targets.toml")
        print(isa)
    elif argv == ["cross-checks"]:
        for isa, path in per_isa(CROSS_CHECK):
            check = load(path)
            print(isa, check["name"], " ".join(check["options"]), sep="\t")
    elif argv == ["narrower-host"]:
        isa = native()
        path = os.path.join(ROOT, NARROWER_HOST.format(isa=isa)) if isa else None
        if path and os.path.exists(path):
            h = load(path)
            print(isa, h["feature"], h["feature_name"], h["host_name"], h["withhold"], h["report"], sep="\t")
    elif argv == ["fuzz-ci"]:
        for count, group in fuzz_ci_groups():
            print(count, *group)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
