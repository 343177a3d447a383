#!/usr/bin/env python3
"""Prints an ISA's similarity-class figures beside the research's.

For every ISA with isa-specs/<isa>/research-classes.toml (the research's
instruction and class counts, and where its instruction list ships with the
vendor data): hydride's classes for every instruction of the ISA it
classifies, and the classes needed to cover the instructions of the
research's list, from the committed generated/<isa>/class-database.json.

It exits non-zero when hydride needs as many classes as the research or
more, for all its instructions or for the research's list.

Usage: scripts/class-figures.py [ISA_DATA]   (default ../shared/isa-data)
"""
import glob
import json
import os
import sys
import tomllib

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def figures(isa, research, data):
    """Prints the figures of `isa`; False when hydride needs as many classes as the research or more."""
    db = json.load(open(os.path.join(root, "generated", isa, "class-database.json")))
    classes = [[m["intrinsic"] for m in c["members"]] for c in db["classes"]]
    members = {i for c in classes for i in c}
    sizes = sorted((len(c) for c in classes), reverse=True)
    print(f"{isa}: {len(members)} instructions in {len(classes)} classes "
          f"({sizes.count(1)} of one instruction, largest {sizes[0]})")
    listed_path = os.path.join(data, isa, research["list"])
    if not os.path.exists(listed_path):
        print(f"no research instruction list at {listed_path}")
        return True
    listed = {k.removeprefix(research["strip_prefix"]).removesuffix(research["strip_suffix"])
              for k in json.load(open(listed_path))}
    covered = listed & members
    covering = [c for c in classes if any(i in listed for i in c)]
    print(f"on the research's instruction list ({len(listed)} entries): {len(covered)} instructions in "
          f"{len(covering)} classes (research: {research['instructions']} in {research['classes']})")
    unclassified = sorted(listed - members)
    if unclassified:
        print(f"  listed but not classified: {', '.join(unclassified)}")
    if len(classes) >= research["classes"] or len(covering) >= research["classes"]:
        print(f"FAILED: not fewer classes than the research's {research['classes']}", file=sys.stderr)
        return False
    return True


data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HYDRIDE_ISA_DATA", os.path.join(root, "..", "shared", "isa-data"))
ok = True
for path in sorted(glob.glob(os.path.join(root, "isa-specs", "*", "research-classes.toml"))):
    with open(path, "rb") as f:
        ok &= figures(os.path.basename(os.path.dirname(path)), tomllib.load(f), data)
sys.exit(0 if ok else 1)
