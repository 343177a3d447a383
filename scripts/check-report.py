"""Checks an x86 front-end report: required fields, consistent counts, no mismatch."""
import json
import sys

report = json.load(open(sys.argv[1]))
required = ["isa", "candidates", "parsed", "validated", "mismatched", "unsupported", "by_cpuid", "failures"]
missing = [k for k in required if k not in report]
assert not missing, f"missing fields: {missing}"
assert report["candidates"] == report["validated"] + report["mismatched"] + report["unsupported"], "counts do not add up"
for key, c in report["by_cpuid"].items():
    assert c["candidates"] == c["validated"] + c["mismatched"] + c["unsupported"], f"{key}: counts do not add up"
assert sum(c["candidates"] for c in report["by_cpuid"].values()) == report["candidates"]
not_validated = report["candidates"] - report["validated"]
listed = {f["name"] for f in report["failures"] if f["stage"] not in ("stale-correction", "malformed")}
assert len(listed) >= not_validated, "every non-validated intrinsic needs a listed reason"
cpu_lacks = [f for f in report["failures"] if f["stage"] == "cpu"]
if not cpu_lacks:
    assert report["validated"] >= 2029, f"validated {report['validated']} < 2029"
else:
    print(f"note: this CPU lacks extensions for {len(cpu_lacks)} intrinsics; the 2,029 floor needs full AVX-512")
stale = [f["name"] for f in report["failures"] if f["stage"] == "stale-correction"]
assert not stale, f"stale corrections: {stale}"
assert report["mismatched"] == 0, [f for f in report["failures"] if f["stage"] == "mismatch"]
print(f"report ok: {report['validated']} of {report['candidates']} validated, 0 mismatched")
