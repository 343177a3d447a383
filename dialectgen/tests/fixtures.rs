//! The x86 front end on hand-written fixtures in the Intrinsics Guide schema.

use dialectgen::eval::agreement::check_agreement;
use dialectgen::eval::typing::infer_types;
use dialectgen::isa::x86::survey::{survey, Survey, SurveyOptions};
use dialectgen::sema::ir::Semantics;
use dialectgen::sema::print::semantics_to_string;
use dialectgen::validate::cases;
use std::path::PathBuf;

fn fixtures(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir)
}

fn parse_only(dir: &str) -> Survey {
    let opts = SurveyOptions { isa_data: fixtures(dir), corrections: None, validation: None, filter: None };
    survey(&opts, &|_: &str, _: usize, _: usize| {}).expect("survey")
}

fn find<'a>(s: &'a Survey, name: &str) -> &'a Semantics {
    &s.semantics.iter().find(|(x, _)| x.name == name).unwrap_or_else(|| panic!("{name} not parsed")).0
}

#[test]
fn every_construct_parses_and_bad_entries_are_listed() {
    let s = survey_report();
    let r = &s.report;
    assert_eq!(r.entries, 22);
    assert_eq!(r.malformed, 1);
    let malformed = r.failures.iter().find(|f| f.stage == "malformed").expect("malformed entry listed");
    assert_eq!(malformed.name, "_mm_unclosed_tag");
    assert!(malformed.location.as_deref().is_some_and(|l| l.ends_with("malformed.xml:26")), "{malformed:?}");
    assert_eq!(r.excluded_by_reason.get("memory access"), Some(&1));
    assert_eq!(r.candidates, 21);
    assert_eq!(r.parsed, 19, "failures: {:#?}", r.failures);
    let broken = r.failures.iter().find(|f| f.name == "_mm_broken_syntax").expect("syntax error listed");
    assert_eq!(broken.stage, "parse");
    assert!(broken.location.as_deref().is_some_and(|l| l.ends_with("constructs.xml:354")), "{broken:?}");
    assert_eq!(broken.source_line.as_deref(), Some("dst[j*8+7:j*8] := a[j*8+7:j*8] +* 1"));
    let unknown = r.failures.iter().find(|f| f.name == "_mm_unknown_helper").expect("unknown helper listed");
    assert_eq!(unknown.stage, "type");
    assert!(unknown.reason.contains("unknown function `FROBNICATE`"), "{unknown:?}");
    assert_eq!(unknown.source_line.as_deref(), Some("dst[127:0] := FROBNICATE(a[127:0])"));
}

fn survey_report() -> Survey {
    parse_only("x86")
}

#[test]
fn types_are_inferred() {
    let s = survey_report();
    let types = infer_types(find(&s, "_mm_sad_epu8")).unwrap();
    let acc = types.iter().find(|t| t.name == "acc").unwrap();
    // Eight 8-bit absolute differences summed exactly need 12 bits.
    assert!(acc.width >= 11 && !acc.signed, "{acc:?}");
    let types = infer_types(find(&s, "_mm512_dpbusd_epi32")).unwrap();
    let sum = types.iter().find(|t| t.name == "sum").unwrap();
    assert!(sum.signed && sum.width > 32, "{sum:?}");
    let types = infer_types(find(&s, "_mm_lzcnt_epi32")).unwrap();
    assert_eq!(types.iter().find(|t| t.name == "b").unwrap().width, 0, "loop counter is an integer");
}

/// A loop that runs on input bits is unrolled, but within a total budget:
/// a helper whose loop reads the whole 512-bit input instead of its lane
/// (a parameter misnamed) is an error at once, not minutes of terms.
#[test]
fn input_dependent_loops_are_unrolled_within_a_total_budget() {
    let operation = "DEFINE COUNT(x) {\n\tcount := 0\n\tDO WHILE a > 0\n\t\tcount += a[0]\n\t\ta >>= 1\n\tOD\n\tRETURN count\n}\nFOR j := 0 to 63\n\ti := j*8\n\tdst[i+7:i] := COUNT(a[i+7:i])\nENDFOR\n";
    let parsed = dialectgen::isa::x86::pseudocode::parse_operation(operation).expect("parses");
    let mut vector = dialectgen::sema::ir::Arg::scalar("a", 512);
    vector.kind = dialectgen::sema::ir::ArgKind::Vector;
    vector.elem.width = 8;
    let mut result = vector.clone();
    result.name = "dst".into();
    let sema = Semantics {
        name: "whole_register_loop".into(),
        args: vec![vector],
        result,
        functions: parsed.functions,
        body: parsed.body,
    };
    let error = infer_types(&sema).expect_err("unrolling 64 loops of 512 iterations is over the budget");
    assert!(error.to_string().contains("unrolled more than"), "{error}");
    // The same loop over its own lane (8 iterations per lane) is typed.
    let own_lane = operation.replace("DEFINE COUNT(x)", "DEFINE COUNT(a)");
    let parsed = dialectgen::isa::x86::pseudocode::parse_operation(&own_lane).expect("parses");
    let sema = Semantics { functions: parsed.functions, body: parsed.body, ..sema };
    infer_types(&sema).expect("a loop over its lane's 8 bits types");
}

#[test]
fn z3_formula_agrees_with_interpreter() {
    let s = survey_report();
    for (sema, _) in &s.semantics {
        let vectors: Vec<_> = cases::generate(sema, 12, 1).into_iter().step_by(7).take(24).map(|c| c.args).collect();
        let n = check_agreement(sema, &vectors).unwrap_or_else(|e| panic!("{e}"));
        assert!(n > 0, "{}", sema.name);
    }
}

#[test]
fn printer_and_serde_round_trip() {
    let s = survey_report();
    let sema = find(&s, "_mm256_maskz_max_epi8");
    let text = semantics_to_string(sema);
    assert!(
        text.starts_with(
            "_mm256_maskz_max_epi8(k: mask<32 x u1>, a: vec<32 x s8>, b: vec<32 x s8>) -> dst: vec<32 x u8>"
        ),
        "{text}"
    );
    assert!(text.contains("dst[(i + 7):i] := (k[j] ? Max(a[(i + 7):i], b[(i + 7):i]) : 0)"), "{text}");
    for (sema, _) in &s.semantics {
        let json = serde_json::to_string(sema).unwrap();
        let back: Semantics = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, sema);
    }
}
