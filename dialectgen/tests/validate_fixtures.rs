//! Validation against this CPU: correct fixtures pass, wrong ones are caught.

mod common;
use common::skip;
use dialectgen::isa::x86::survey::{survey, SurveyOptions};
use dialectgen::isa::x86::validate::ValidationConfig;
use std::path::PathBuf;

fn have_compiler() -> bool {
    std::process::Command::new("clang-22").arg("--version").output().is_ok()
}

fn run(dir: &str) -> dialectgen::isa::x86::report::Report {
    let opts = SurveyOptions {
        isa_data: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir),
        corrections: None,
        validation: Some(ValidationConfig::default()),
        filter: None,
    };
    survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey").report
}

#[test]
fn correct_fixtures_validate_on_this_cpu() {
    if !have_compiler() {
        skip("clang-22 not found; run scripts/setup");
        return;
    }
    let r = run("x86");
    let unexpected: Vec<_> = r
        .failures
        .iter()
        .filter(|f| !matches!(f.name.as_str(), "_mm_broken_syntax" | "_mm_unknown_helper" | "_mm_unclosed_tag"))
        .filter(|f| f.stage != "unvalidated")
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    assert_eq!(r.mismatched, Some(0));
    // What this host cannot execute is unvalidated: the fixtures have no record.
    let cpu_missing = r.failures.iter().filter(|f| f.stage == "unvalidated").count();
    assert_eq!(r.unvalidated, cpu_missing);
    assert_eq!(r.validated, Some(19 - cpu_missing));
    assert_eq!(r.validated_here, 19 - cpu_missing);
    assert!(r.test_vectors > 1000);
}

#[test]
fn wrong_semantics_are_reported_as_mismatches() {
    if !have_compiler() {
        skip("clang-22 not found; run scripts/setup");
        return;
    }
    let r = run("x86-wrong");
    assert_eq!(r.mismatched, Some(2), "{:#?}", r.failures);
    assert_eq!(r.validated, Some(0));
    assert!(r.failures.iter().all(|f| f.stage == "mismatch" && f.reason.contains("cpu 0x")));
}
