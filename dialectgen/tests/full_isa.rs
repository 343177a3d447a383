//! The x86 front end over the full vendor data in `../shared/isa-data`
//! (or `HYDRIDE_ISA_DATA`): parse, validate on this CPU, and cross-check the
//! Z3 formulas. Skipped, with a message, when the data is absent.

use dialectgen::eval::agreement::check_agreement;
use dialectgen::validate::{cases, ValidationConfig};
use dialectgen::x86::survey::{survey, SurveyOptions};
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
fn full_x86_validates_on_this_cpu() {
    let Some(dir) = isa_data() else {
        eprintln!("SKIPPED: no vendor data at ../shared/isa-data/x86 (set HYDRIDE_ISA_DATA)");
        return;
    };
    let opts = SurveyOptions {
        isa_data: dir,
        corrections: Some(corrections()),
        validation: Some(ValidationConfig::default()),
        filter: None,
    };
    let s = survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey");
    let r = &s.report;
    eprintln!("{}", r.table());
    assert!((2000..=2600).contains(&r.candidates), "candidates {}", r.candidates);
    assert_eq!(r.mismatched, Some(0), "{:#?}", r.failures.iter().filter(|f| f.stage == "mismatch").collect::<Vec<_>>());
    let cpu_ok = !r.failures.iter().any(|f| f.stage == "cpu");
    if cpu_ok {
        assert!(r.validated.unwrap() >= 2029, "validated {:?}", r.validated);
    } else {
        eprintln!("NOTE: this CPU lacks some extensions; the 2,029 floor is checked only on a full AVX-512 machine");
    }
    assert!(r.failures.iter().all(|f| f.stage != "stale-correction"), "stale corrections");

    // The Z3 formula of every validated intrinsic agrees with the interpreter
    // on a few of its test vectors.
    let disagreements: Vec<String> = s
        .semantics
        .par_iter()
        .filter(|(_, ok)| *ok)
        .filter_map(|(sema, _)| {
            let vectors: Vec<_> = cases::generate(sema, 4, 1).into_iter().step_by(97).take(2).map(|c| c.args).collect();
            check_agreement(sema, &vectors).err().map(|e| e.to_string())
        })
        .collect();
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}
