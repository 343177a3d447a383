"""What the HVX front end's report (`hydride isa hvx --report-json`, or its
entry in `hydride gen`'s) must show: every definition in scope or excluded
by reason, every untranslated or unrun one named, no mismatch, at least 342
validated under qemu-hexagon, and every disagreement with the manual
recorded as a correction.

Its report has no `isa` field: `identifies` tells it apart.

Executed by scripts/check-report.py, which gives it `check_fields` (the
fields a report must have) and `check_lowering` (the LLVM lowering counts
every front end's report may carry)."""


def check(report):
    required = ["definitions", "excluded", "excluded_reasons", "in_scope", "translated", "validated", "mismatched",
                "not_run", "by_form", "faults", "mismatches", "not_run_list"]
    check_fields("hvx", report, required)
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


def identifies(report):
    """A report of this front end without its `isa` field."""
    return "definitions" in report
