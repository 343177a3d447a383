"""Checks front-end reports: `hydride gen --report-json` writes one per ISA
(an object keyed by ISA name); `hydride isa <isa> --report-json` writes one.

What each ISA's report must show is in isa-specs/<isa>/report_check.py,
which defines `check(report)` and may define `identifies(report)` (a report
of that ISA without an `isa` field) and `same_validation(report, other)`
(for an ISA whose validation depends on the host).

With `--same-validation-as OTHER`, also checks, for each ISA of REPORT whose
validation depends on the host, that its verdicts equal OTHER's: a host
where they are equal generates the same files."""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# The forms of LLVM lowering a report counts (`llvm_lowering`), beside "none".
LOWERING_FORMS = [
    ("intrinsic_call", "intrinsic calls"),
    ("generic_ir", "clang IR"),
    ("movement", "data movements by the immediate"),
    ("generic_ir_per_immediate", "clang IR per immediate value"),
    ("generic_ir_of_immediate", "clang IR of the immediate"),
]


def check_lowering(isa, lowering, minimum, required=()):
    """The lowering counts add up to the instructions, at least `minimum` are
    lowered; `intrinsic_call`, `generic_ir` and `required` must be present."""
    if lowering is None:
        return
    for key in ("intrinsic_call", "generic_ir", *required):
        assert key in lowering, f"{isa} llvm_lowering: no '{key}'"
    counts = [(lowering.get(key, 0), label) for key, label in LOWERING_FORMS]
    covered = sum(n for n, _ in counts)
    assert lowering["instructions"] == covered + sum(lowering["none"].values()), \
        f"{isa} llvm_lowering: instructions = " + " + ".join(label for _, label in LOWERING_FORMS) + " + none"
    assert covered >= minimum, \
        f"{isa} llvm_lowering: {covered} instructions with an LLVM lowering < {minimum} ({lowering['none']})"
    present = [(lowering[key], label) for key, label in LOWERING_FORMS if key in lowering]
    print(f"{isa} LLVM lowering: " + " + ".join(f"{n} {label}" for n, label in present)
          + f" of {lowering['instructions']} instructions; none: {lowering['none']}")


def check_fields(isa, report, required):
    """The report has every field of `required`."""
    missing = [k for k in required if k not in report]
    assert not missing, f"{isa}: missing fields: {missing}"


def load_checks():
    """Each ISA's report check, by ISA name (its folder under isa-specs/)."""
    checks = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "isa-specs", "*", "report_check.py"))):
        namespace = {"check_lowering": check_lowering, "check_fields": check_fields}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
        checks[os.path.basename(os.path.dirname(path))] = namespace
    return checks


CHECKS = load_checks()


def by_isa(report):
    """A report keyed by ISA name: `hydride gen`'s as it is, one front end's
    under its ISA."""
    if "isa" in report:
        return {report["isa"]: report}
    for isa, check in CHECKS.items():
        if "identifies" in check and check["identifies"](report):
            return {isa: report}
    return report


def checks_of(isa):
    if isa not in CHECKS:
        sys.exit(f"check-report.py: no isa-specs/{isa}/report_check.py")
    return CHECKS[isa]


reports = by_isa(json.load(open(sys.argv[1])))
for isa, r in reports.items():
    checks_of(isa)["check"](r)
if len(sys.argv) == 4 and sys.argv[2] == "--same-validation-as":
    others = by_isa(json.load(open(sys.argv[3])))
    host_dependent = [isa for isa in reports if "same_validation" in checks_of(isa)]
    if not host_dependent:
        sys.exit(f"check-report.py: {sys.argv[1]} has no ISA whose validation depends on the host")
    for isa in host_dependent:
        checks_of(isa)["same_validation"](reports[isa], others[isa])
elif len(sys.argv) != 2:
    sys.exit("usage: check-report.py REPORT [--same-validation-as OTHER]")
