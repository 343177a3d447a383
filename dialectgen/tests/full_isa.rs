//! The x86 front end over the full vendor data in `../shared/isa-data`
//! (or `HYDRIDE_ISA_DATA`): parse and type every intrinsic, and cross-check
//! its Z3 formula with the interpreter. Skipped, with a message, when the
//! data is absent. Validation on the CPU over the same data runs through the
//! CLI in `scripts/test` (checked by `scripts/check-report.py`).

mod common;
use common::skip;
use dialectgen::eval::agreement::check_agreement;
use dialectgen::isa::x86::survey::{survey, SurveyOptions};
use dialectgen::validate::cases;
use rayon::prelude::*;
use std::path::PathBuf;

fn isa_data() -> Option<PathBuf> {
    let dir = std::env::var_os("HYDRIDE_ISA_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/isa-data"));
    dir.join("x86").is_dir().then_some(dir)
}

fn corrections() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../isa-specs/x86/corrections.yaml")
}

#[test]
fn full_x86_parses_and_formulas_agree() {
    let Some(dir) = isa_data() else {
        skip("no vendor data at ../shared/isa-data/x86 (set HYDRIDE_ISA_DATA)");
        return;
    };
    let opts = SurveyOptions { isa_data: dir, corrections: Some(corrections()), validation: None, filter: None };
    let s = survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey");
    let r = &s.report;
    eprintln!("{}", r.table());
    assert!((2000..=2600).contains(&r.candidates), "candidates {}", r.candidates);
    let unexpected: Vec<_> = r.failures.iter().filter(|f| f.stage != "excluded").collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    assert!(r.parsed >= 2029, "parsed {}", r.parsed);

    // The Z3 formula of every parsed intrinsic agrees with the interpreter
    // on a few of its test vectors.
    let disagreements: Vec<String> = s
        .semantics
        .par_iter()
        .filter_map(|(sema, _)| {
            let vectors: Vec<_> = cases::generate(sema, 4, 1).into_iter().step_by(97).take(2).map(|c| c.args).collect();
            check_agreement(sema, &vectors).err().map(|e| e.to_string())
        })
        .collect();
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}
