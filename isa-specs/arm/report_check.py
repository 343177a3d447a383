"""What the ARM front end's report (`hydride isa arm --report-json`, or its
entry in `hydride gen`'s) must show: every in-scope intrinsic validated under
qemu-aarch64 or named with its reason, no mismatch, every exclusion by
reason, the intrinsic → encoding → execute mapping complete, and the
validated floor.

Executed by scripts/check-report.py, which gives it `check_fields` (the
fields a report must have) and `check_lowering` (the LLVM lowering counts
every front end's report may carry)."""


def check(report):
    required = ["isa", "total_intrinsics", "in_scope", "excluded", "semantics", "validated", "mismatched",
                "by_group", "by_form", "failures", "mismatches", "mapping", "encodings", "execute_bodies"]
    check_fields("arm", report, required)
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
