//! ARM semantics against the instructions under qemu-aarch64, on Arm's own
//! data: a sample validates, and semantics that are wrong are caught.

use dialectgen::isa::arm::corrections::Corrections;
use dialectgen::isa::arm::front::{run, ArmFrontEnd, ArmSources};
use dialectgen::isa::arm::harness::{Expected, HarnessConfig};
use dialectgen::isa::arm::validate::{validate, validate_items, ArmOutcome, CaseCounts};
use std::path::PathBuf;

mod common;

fn data() -> Option<PathBuf> {
    let dir = std::env::var_os("HYDRIDE_ISA_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/isa-data"));
    if !ArmSources::under(&dir).intrinsics.exists() {
        common::skip("no ARM vendor data (set HYDRIDE_ISA_DATA)");
        return None;
    }
    if !dialectgen::isa::arm::harness::qemu().available() {
        common::skip("qemu-aarch64 is not installed");
        return None;
    }
    Some(dir)
}

fn config(dir: &tempfile::TempDir) -> HarnessConfig {
    HarnessConfig {
        clang: "clang-22".into(),
        objdump: "llvm-objdump-22".into(),
        runner: dialectgen::isa::arm::harness::qemu(),
        work_dir: dir.path().to_path_buf(),
        batch_size: 64,
        jobs: 2,
    }
}

fn front(filter: &str) -> Option<ArmFrontEnd> {
    let d = data()?;
    let corrections =
        Corrections::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../isa-specs/arm/corrections.yaml"))
            .unwrap();
    Some(run(&ArmSources::under(&d), &corrections, Some(filter)).unwrap())
}

#[test]
fn dot_products_validate_for_every_lane() {
    let Some(fe) = front("dot") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let outcomes = validate(&fe.bound, &config(&tmp), CaseCounts::default());
    let mut validated = 0;
    for (b, o) in fe.bound.iter().zip(&outcomes) {
        match o {
            Some(ArmOutcome::Validated { cases, .. }) => {
                validated += 1;
                let lanes = b.intrinsic.args.iter().find_map(|a| a.range).map_or(1, |(lo, hi)| hi - lo + 1);
                assert!(*cases as i64 >= 4 * lanes, "{}: every lane is tried", b.intrinsic.name);
            }
            Some(other) => panic!("{}: {other:?}", b.intrinsic.name),
            None => {}
        }
    }
    assert!(validated >= 20, "sdot/udot/usdot/sudot and their lane forms: {validated}");
}

#[test]
fn wrong_semantics_are_caught() {
    let Some(fe) = front("vqadd") else { return };
    let pick = |n: &str| fe.bound.iter().find(|b| b.intrinsic.name == n).unwrap();
    let (sat, plain) = (pick("vqaddq_s8"), pick("vqaddq_u8"));
    // Signed saturation checked against the unsigned instruction's semantics.
    let wrong = plain.result.as_ref().unwrap().clone();
    let expected: Vec<Expected> =
        sat.words.iter().map(|(imm, word)| Expected { imm: *imm, word: *word, mask: sat.register_mask }).collect();
    let tmp = tempfile::tempdir().unwrap();
    let out = validate_items(&[(&sat.intrinsic, &wrong)], &[expected.clone()], &config(&tmp), CaseCounts::default());
    assert!(matches!(&out[0], ArmOutcome::Mismatch { detail } if detail.contains("emulator")), "{:?}", out[0]);
    let right = sat.result.as_ref().unwrap();
    let out = validate_items(&[(&sat.intrinsic, right)], &[expected], &config(&tmp), CaseCounts::default());
    assert!(matches!(out[0], ArmOutcome::Validated { .. }), "{:?}", out[0]);
}

#[test]
fn an_instruction_missing_from_the_program_is_not_validated() {
    let Some(fe) = front("vqaddq_s8") else { return };
    let b = &fe.bound[0];
    // Claim another instruction word (SQSUB's): the disassembly check fails.
    let expected = vec![Expected { imm: None, word: 0x4e222c20, mask: b.register_mask }];
    let tmp = tempfile::tempdir().unwrap();
    let out = validate_items(
        &[(&b.intrinsic, b.result.as_ref().unwrap())],
        &[expected],
        &config(&tmp),
        CaseCounts::default(),
    );
    assert!(matches!(&out[0], ArmOutcome::Failed { stage: "disassembly", .. }), "{:?}", out[0]);
}
