#!/usr/bin/env python3
"""Prints the HVX similarity-class figures beside the research's.

The research this project follows reports 307 HVX instructions in 115
classes; its instruction list ships with the vendor data as
hvx/hydride/HVXInsts.json (321 entries). This prints hydride's classes for
every HVX instruction it classifies, and the classes needed to cover the
instructions of that list, from the committed generated/hvx/class-database.json.

It exits non-zero when hydride needs as many classes as the research or
more, for all its instructions or for the research's list.

Usage: scripts/hvx-class-figures.py [ISA_DATA]   (default ../shared/isa-data)
"""
import json
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HYDRIDE_ISA_DATA", os.path.join(root, "..", "shared", "isa-data"))
db = json.load(open(os.path.join(root, "generated", "hvx", "class-database.json")))
classes = [[m["intrinsic"] for m in c["members"]] for c in db["classes"]]
members = {i for c in classes for i in c}
sizes = sorted((len(c) for c in classes), reverse=True)
RESEARCH_INSTRUCTIONS, RESEARCH_CLASSES = 307, 115
print(f"hvx: {len(members)} instructions in {len(classes)} classes "
      f"({sizes.count(1)} of one instruction, largest {sizes[0]})")
listed_path = os.path.join(data, "hvx", "hydride", "HVXInsts.json")
if not os.path.exists(listed_path):
    print(f"no research instruction list at {listed_path}")
    sys.exit(0)
listed = {k.removeprefix("hexagon_").removesuffix("_128B") for k in json.load(open(listed_path))}
covered = listed & members
covering = [c for c in classes if any(i in listed for i in c)]
print(f"on the research's instruction list ({len(listed)} entries): {len(covered)} instructions in "
      f"{len(covering)} classes (research: {RESEARCH_INSTRUCTIONS} in {RESEARCH_CLASSES})")
unclassified = sorted(listed - members)
if unclassified:
    print(f"  listed but not classified: {', '.join(unclassified)}")
if len(classes) >= RESEARCH_CLASSES or len(covering) >= RESEARCH_CLASSES:
    print(f"FAILED: not fewer classes than the research's {RESEARCH_CLASSES}", file=sys.stderr)
    sys.exit(1)
