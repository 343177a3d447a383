"""Checks front-end reports: `hydride gen --report-json` writes one per ISA
({"x86": …, "arm": …, "hvx": …}); `hydride isa <isa> --report-json` writes one.

x86: required fields, consistent counts, no mismatch, every intrinsic that
did not validate named with its reason, and the validated floor (here or by
the recorded hardware verdicts).
ARM: every in-scope intrinsic validated under qemu-aarch64 or named with its
reason, no mismatch, every exclusion by reason, the intrinsic → encoding →
execute mapping complete, and the validated floor.
HVX: every definition in scope or excluded by reason, every untranslated or
unrun one named, no mismatch, at least 342 validated under qemu-hexagon, and
every disagreement with the manual recorded as a correction.

With `--same-x86-validation-as OTHER`, also checks that the x86 verdicts equal
OTHER's (the same intrinsics validated, the same ones left out for the same
reasons): x86 validation is the only input of `hydride gen` that depends on
the host, so a host where they are equal generates the same files."""
import json
import sys


def check_arm(report):
    required = ["isa", "total_intrinsics", "in_scope", "excluded", "semantics", "validated", "mismatched",
                "by_group", "by_form", "failures", "mismatches", "mapping", "encodings", "execute_bodies"]
    missing = [k for k in required if k not in report]
    assert not missing, f"arm: missing fields: {missing}"
    excluded = sum(len(v) for v in report["excluded"].values()) + len(report.get("excluded_by_correction", {}))
    assert report["total_intrinsics"] == report["in_scope"] + excluded, "arm: total = in scope + excluded"
    assert report["mismatched"] == 0, report["mismatches"][:5]
    named = {f["name"] for f in report["failures"]}
    statuses = {m["intrinsic"]: m["status"] for m in report["mapping"]}
    assert len(statuses) == report["in_scope"], "arm: one mapping per in-scope intrinsic"
    for name, status in statuses.items():
        assert status == "validated" or name in named, f"arm: {name} ({status}) has no reason"
    for m in report["mapping"]:
        if m["status"] == "validated":
            assert m["encoding"] and m["execute"], f"arm: {m['intrinsic']} validated without its encoding"
    assert sum(c["validated"] for c in report["by_group"].values()) == report["validated"]
    assert report["validated"] >= 1598, f"arm: validated {report['validated']} < 1598"
    check_lowering("arm", report.get("llvm_lowering"), 1700, required=("generic_ir_per_immediate",))
    print(f"arm report ok: {report['validated']} of {report['in_scope']} in scope validated under qemu-aarch64 "
          f"({report['validated_via_inline_asm']} through inline asm), 0 mismatched; "
          f"{report['encodings']} encodings, {report['execute_bodies']} execute bodies")


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


def check_x86(report):
    required = ["isa", "candidates", "parsed", "validated", "validated_here", "validated_by_record", "unvalidated",
                "mismatched", "unsupported", "by_cpuid", "failures", "host"]
    missing = [k for k in required if k not in report]
    assert not missing, f"missing fields: {missing}"
    assert report["candidates"] == report["validated"] + report["mismatched"] + report["unsupported"], "counts do not add up"
    assert report["validated"] == report["validated_here"] + report["validated_by_record"], "validated = here + by record"
    for key, c in report["by_cpuid"].items():
        assert c["candidates"] == c["validated"] + c["mismatched"] + c["unsupported"], f"{key}: counts do not add up"
    assert sum(c["candidates"] for c in report["by_cpuid"].values()) == report["candidates"]
    not_validated = report["candidates"] - report["validated"]
    listed = {f["name"] for f in report["failures"] if f["stage"] not in ("stale-correction", "malformed")}
    assert len(listed) >= not_validated, "every non-validated intrinsic needs a listed reason"
    unvalidated = [f["name"] for f in report["failures"] if f["stage"] == "unvalidated"]
    assert len(unvalidated) == report["unvalidated"], "every unvalidated intrinsic is named"
    stale = [f["name"] for f in report["failures"] if f["stage"] == "stale-correction"]
    assert not stale, f"stale corrections: {stale}"
    assert report["mismatched"] == 0, [f for f in report["failures"] if f["stage"] == "mismatch"]
    stale_record = report.get("record_stale", [])
    assert not stale_record, (f"{len(stale_record)} intrinsics validated here have no current entry in "
                              f"isa-specs/x86/validation-record.json (e.g. {stale_record[:5]}): run "
                              "`./target/release/hydride record x86` on a machine with every extension and commit it")
    assert report["validated"] >= 2029, f"validated {report['validated']} < 2029 (unvalidated: {unvalidated[:10]})"
    check_lowering("x86", report.get("llvm_lowering"), 2250)
    host = report["host"]
    print(f"report ok on {host['model']}"
          + (f" (withheld: {' '.join(host['withheld'])})" if host["withheld"] else "")
          + f": {report['validated']} of {report['candidates']} validated ({report['validated_here']} here, "
          f"{report['validated_by_record']} by the record), {report['unvalidated']} unvalidated, 0 mismatched")


def check_hvx(report):
    required = ["definitions", "excluded", "excluded_reasons", "in_scope", "translated", "validated", "mismatched",
                "not_run", "by_form", "faults", "mismatches", "not_run_list"]
    missing = [k for k in required if k not in report]
    assert not missing, f"hvx: missing fields: {missing}"
    assert report["definitions"] == report["in_scope"] + sum(report["excluded"].values()), "hvx: total = in scope + excluded"
    assert set(report["excluded"]) == set(report["excluded_reasons"]), "hvx: every exclusion has its reason"
    assert report["mismatched"] == 0, report["mismatches"][:5]
    assert len(report["faults"]) == report["in_scope"] - report["translated"], "hvx: every untranslated definition is named"
    # What is left untranslated is what has operands hydride does not model (histograms that update
    # registers they do not name, forms executed under a scalar predicate): every bound definition translates.
    unbound_only = [f"{f['tag']}: {f['stage']}: {f['message']}" for f in report["faults"] if f["stage"] != "bind"]
    assert not unbound_only, f"hvx: bound definitions that do not translate: {unbound_only}"
    assert report["translated"] >= 373, f"hvx: translated {report['translated']} < 373"
    assert len(report["not_run_list"]) == report["not_run"], "hvx: every instruction not run is named"
    if report["validated"] or report["not_run"]:
        assert report["validated"] + report["not_run"] == report["translated"], "hvx: every translated one ran or is named"
        assert report["validated"] >= 342, f"hvx: validated {report['validated']} < 342"
    manual = report.get("manual")
    summary = ""
    if manual is not None:
        entries = manual["entries"]
        verdicts = [e["verdict"] for e in entries]
        for v in ("agreed", "disagreed", "unknown", "unparsed"):
            assert verdicts.count(v) == manual[v], f"hvx: manual {v} count {manual[v]} != {verdicts.count(v)} entries"
        unrecorded = [e["tag"] for e in entries if e["verdict"] == "disagreed" and not e.get("recorded")]
        assert not unrecorded, f"hvx: manual disagreements without a correction: {unrecorded}"
        assert all(e.get("correction") for e in entries if e["verdict"] == "disagreed"), "hvx: a disagreement has no reason"
        assert not manual["stale_corrections"], f"hvx: corrections for entries that agree: {manual['stale_corrections']}"
        assert len(entries) + len(manual["no_qemu"]) >= 321, f"hvx: {len(entries)} manual entries compared"
        assert manual["agreed"] >= 200, f"hvx: only {manual['agreed']} manual entries agree"
        summary = (f"; manual: {manual['agreed']} agreed, {manual['disagreed']} disagreed (all recorded), "
                   f"{manual['unknown']} unknown, {manual['unparsed']} unparsed")
    print(f"hvx report ok: {report['validated']} of {report['in_scope']} in scope validated under qemu-hexagon, "
          f"{report['translated']} translated, 0 mismatched{summary}")


def by_isa(report):
    return report if "isa" not in report and "definitions" not in report else {report.get("isa", "hvx"): report}


def same_x86_validation(report, other):
    verdicts = [(r["candidates"], r["validated"], sorted((f["name"], f["stage"]) for f in r["failures"]))
                for r in (report, other)]
    assert verdicts[0][:2] == verdicts[1][:2], f"x86: validated {verdicts[0][:2]} here, {verdicts[1][:2]} there"
    assert verdicts[0][2] == verdicts[1][2], ("x86: different intrinsics left out: "
                                              f"{sorted(set(verdicts[0][2]) ^ set(verdicts[1][2]))[:10]}")
    print(f"x86 verdicts equal the other report's: {report['validated']} of {report['candidates']} validated, "
          f"the same {len(report['failures'])} left out, so generation here makes the same files")


reports = by_isa(json.load(open(sys.argv[1])))
for isa, r in reports.items():
    {"x86": check_x86, "arm": check_arm, "hvx": check_hvx}[isa](r)
if len(sys.argv) == 4 and sys.argv[2] == "--same-x86-validation-as":
    same_x86_validation(reports["x86"], by_isa(json.load(open(sys.argv[3])))["x86"])
elif len(sys.argv) != 2:
    sys.exit("usage: check-report.py REPORT [--same-x86-validation-as OTHER]")
