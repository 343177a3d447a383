//! The validation record end to end on the fixture guide: verdicts recorded
//! on this host vouch for the same intrinsics on a host that executes less
//! (this one with features withheld), and only for exactly the semantics,
//! vectors and results they were recorded with.

mod common;
use common::skip;
use dialectgen::isa::x86::host::Host;
use dialectgen::isa::x86::report::Report;
use dialectgen::isa::x86::survey::{survey, Survey, SurveyOptions};
use dialectgen::isa::x86::validate::record::{Record, Run};
use dialectgen::isa::x86::validate::{Outcome, ValidationConfig};
use std::path::PathBuf;
use std::sync::Arc;

fn run(cfg: ValidationConfig) -> Survey {
    let opts = SurveyOptions {
        isa_data: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/x86"),
        corrections: None,
        validation: Some(cfg),
        filter: None,
    };
    survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey")
}

/// This host with everything above SSE2 withheld (as well as whatever the
/// environment already withholds).
fn smaller_host() -> Host {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let already = std::env::var(dialectgen::isa::x86::host::WITHHOLD_ENV).unwrap_or_default();
    Host::from_cpuinfo(&cpuinfo, &format!("{already},avx*,ssse3,sse3,pni,sse4*,gfni"))
}

fn with_record(host: Host, record: &Record) -> Report {
    run(ValidationConfig { record: Some(Arc::new(record.clone())), ..ValidationConfig::for_host(host) }).report
}

fn stage_of<'a>(r: &'a Report, name: &str) -> Option<&'a str> {
    r.failures.iter().find(|f| f.name == name).map(|f| f.stage.as_str())
}

#[test]
fn recorded_verdicts_stand_in_for_what_a_host_cannot_execute() {
    if std::process::Command::new("clang-22").arg("--version").output().is_err() {
        skip("clang-22 not found; run scripts/setup");
        return;
    }
    // Record what this host executes.
    let here = run(ValidationConfig::default());
    let mut record = Record::default();
    let update = record.update(&here.outcomes, Run { cpu: "this host".into(), features: "test".into(), commit: None });
    let executed: Vec<&String> = here
        .outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Validated { by_record: None, .. }))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(update.added.len(), executed.len());
    assert_eq!(here.report.validated, Some(executed.len()));

    // A host that executes only SSE2 validates the same set: the rest by the record.
    let small = smaller_host();
    let r = with_record(small.clone(), &record);
    assert_eq!(r.validated, here.report.validated, "{:#?}", r.failures);
    assert_eq!(r.mismatched, Some(0));
    assert!(r.validated_by_record > 0, "AVX/SSSE3 fixtures come from the record");
    assert!(r.validated_here > 0, "SSE2 fixtures run here");
    assert_eq!(r.validated_here + r.validated_by_record, executed.len());
    assert_eq!(r.unvalidated, here.report.unvalidated);
    // Without the record they are unvalidated, and named.
    let bare = run(ValidationConfig::for_host(small.clone())).report;
    assert_eq!(bare.unvalidated, r.validated_by_record + r.unvalidated);

    // One intrinsic of each kind: taken from the record, and executed by the small host.
    let bare_unvalidated: Vec<&str> =
        bare.failures.iter().filter(|f| f.stage == "unvalidated").map(|f| f.name.as_str()).collect();
    let Some(by_record) = executed.iter().map(|n| n.as_str()).find(|n| bare_unvalidated.contains(n)) else {
        skip("this host executes nothing beyond SSE2");
        return;
    };
    let sse2 = executed.iter().map(|n| n.as_str()).find(|n| !bare_unvalidated.contains(n)).expect("an SSE2 fixture");
    assert_eq!(stage_of(&r, by_record), None);

    // Results that are not the hardware's: a mismatch, never a validation.
    let mut forged = record.clone();
    forged.entries.get_mut(by_record).unwrap().evidence.results_sha256 = "0".repeat(64);
    let f = with_record(small.clone(), &forged);
    assert_eq!(stage_of(&f, by_record), Some("mismatch"));
    assert_eq!(f.mismatched, Some(1));

    // A stale entry (other semantics or vectors): unvalidated, saying why.
    for field in ["semantics", "vectors"] {
        let mut stale = record.clone();
        let e = &mut stale.entries.get_mut(by_record).unwrap().evidence;
        match field {
            "semantics" => e.semantics_sha256 = "1".repeat(64),
            _ => e.vectors_sha256 = "1".repeat(64),
        }
        let s = with_record(small.clone(), &stale);
        let failure = s.failures.iter().find(|x| x.name == by_record).expect("named");
        assert_eq!(failure.stage, "unvalidated");
        assert!(failure.reason.contains(field) && failure.reason.contains("hydride record x86"), "{}", failure.reason);
    }

    // What this host validates without a current entry is reported as stale record.
    let mut missing = record.clone();
    missing.entries.remove(sse2);
    assert_eq!(with_record(small.clone(), &missing).record_stale, vec![sse2.to_string()]);
    assert!(r.record_stale.is_empty());

    // A host whose own verdict disagrees with the record fails, by name.
    let mut disagreeing = record.clone();
    disagreeing.entries.get_mut(sse2).unwrap().evidence.results_sha256 = "2".repeat(64);
    let d = with_record(small, &disagreeing);
    let failure = d.failures.iter().find(|x| x.name == sse2).expect("named");
    assert_eq!(failure.stage, "mismatch");
    assert!(failure.reason.contains("recorded hardware results"), "{}", failure.reason);
}
