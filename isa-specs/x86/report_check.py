"""What the x86 front end's report (`hydride isa x86 --report-json`, or its
entry in `hydride gen`'s) must show: required fields, consistent counts, no
mismatch, every intrinsic that did not validate named with its reason, and
the validated floor (here or by the recorded hardware verdicts).

Its validation is the only input of `hydride gen` that depends on the host:
`same_validation` checks that two reports have the same verdicts (the same
intrinsics validated, the same ones left out for the same reasons), so a
host where they are equal generates the same files.

Executed by scripts/check-report.py, which gives it `check_fields` (the
fields a report must have) and `check_lowering` (the LLVM lowering counts
every front end's report may carry)."""


def check(report):
    required = ["isa", "candidates", "parsed", "validated", "validated_here", "validated_by_record", "unvalidated",
                "mismatched", "unsupported", "by_cpuid", "failures", "host"]
    check_fields("x86", report, required)
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


def same_validation(report, other):
    verdicts = [(r["candidates"], r["validated"], sorted((f["name"], f["stage"]) for f in r["failures"]))
                for r in (report, other)]
    assert verdicts[0][:2] == verdicts[1][:2], f"x86: validated {verdicts[0][:2]} here, {verdicts[1][:2]} there"
    assert verdicts[0][2] == verdicts[1][2], ("x86: different intrinsics left out: "
                                              f"{sorted(set(verdicts[0][2]) ^ set(verdicts[1][2]))[:10]}")
    print(f"x86 verdicts equal the other report's: {report['validated']} of {report['candidates']} validated, "
          f"the same {len(report['failures'])} left out, so generation here makes the same files")
