//! The ARM front end on project-authored fixtures: binding by encoding,
//! translation of ASL, and a located diagnostic for each kind of bad input
//! while the rest is processed.

use dialectgen::eval::{Concrete, Machine};
use dialectgen::isa::arm::corrections::Corrections;
use dialectgen::isa::arm::front::{run, ArmSources};
use num_bigint::BigUint;
use std::path::PathBuf;

mod common;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/arm")
}

fn front_end() -> Option<dialectgen::isa::arm::front::ArmFrontEnd> {
    if std::process::Command::new("llvm-mc-22").arg("--version").output().is_err() {
        common::skip("llvm-mc-22 is not installed");
        return None;
    }
    Some(run(&ArmSources::under(&fixtures()), &Corrections::default(), None).expect("front end runs"))
}

fn failure<'a>(
    fe: &'a dialectgen::isa::arm::front::ArmFrontEnd,
    name: &str,
) -> &'a dialectgen::isa::arm::bind::BindFailure {
    let b = fe.bound.iter().find(|b| b.intrinsic.name == name).expect("bound");
    b.result.as_ref().err().unwrap_or_else(|| panic!("{name} should fail"))
}

/// The fixture line a failure's `file:line:col` points at.
fn located_line(f: &dialectgen::isa::arm::bind::BindFailure) -> String {
    let loc = f.location.as_deref().expect("a location");
    assert!(loc.contains("arch_instrs.asl:"), "{loc}");
    let line: usize = loc.split(':').nth(1).unwrap().parse().unwrap();
    let text = std::fs::read_to_string(fixtures().join("asl/arch_instrs.asl")).unwrap();
    text.lines().nth(line - 1).unwrap().to_string()
}

#[test]
fn good_intrinsic_gets_semantics_that_saturate() {
    let Some(fe) = front_end() else { return };
    assert_eq!(fe.total, 5);
    assert_eq!(fe.excluded.len(), 1, "the floating-point intrinsic is out of scope");
    let b = fe.bound.iter().find(|b| b.intrinsic.name == "vqadd_s8").unwrap();
    assert_eq!(b.encoding.as_deref(), Some("test_saturating_add_vector"));
    let sema = b.result.as_ref().expect("vqadd_s8 translates");
    // 0x7f + 0x01 saturates to 0x7f; 0x80 + 0xff saturates to 0x80; 3 + 4 = 7.
    let a = BigUint::from(0x03_80_7fu64);
    let c = BigUint::from(0x04_ff_01u64);
    let r = Machine::new(&mut Concrete, sema).run(&[a, c]).unwrap();
    assert_eq!(r, BigUint::from(0x07_80_7fu64));
}

#[test]
fn unknown_helper_is_located_in_the_execute_block() {
    let Some(fe) = front_end() else { return };
    let f = failure(&fe, "vhadd_s8");
    assert_eq!(f.stage, "translate");
    assert!(f.message.contains("HalveSum"), "{}", f.message);
    let line = located_line(f);
    assert!(line.contains("HalveSum"), "{line} is the call");
}

#[test]
fn malformed_body_is_a_parse_error_at_its_position() {
    let Some(fe) = front_end() else { return };
    let f = failure(&fe, "vsub_s8");
    assert_eq!(f.stage, "parse");
    let line = located_line(f);
    assert!(line.contains("- ;"), "{line}");
}

#[test]
fn undefined_decode_is_reported_with_its_line() {
    let Some(fe) = front_end() else { return };
    let f = failure(&fe, "vqaddd_s64");
    assert_eq!(f.stage, "decode");
    assert!(f.message.contains("UNDEFINED"), "{}", f.message);
    let line = located_line(f);
    assert!(line.contains("UNDEFINED"), "{line}");
}
