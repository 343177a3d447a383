//! Validation of ARM semantics: every intrinsic runs under an emulator on
//! random and edge vectors, every immediate and lane value, and each result
//! is compared bit for bit with the interpreter.

use super::front::Bound;
use super::harness::{execute, Expected, HarnessCase, HarnessConfig, HarnessItem, Via};
use super::intrinsics::Intrinsic;
use crate::eval::{Concrete, Machine};
use crate::sema::ir::{ArgKind, Semantics};
use crate::validate::cases::{self, TestCase};
use num_bigint::BigUint;

/// The verdict for one intrinsic.
#[derive(Clone, Debug, PartialEq)]
pub enum ArmOutcome {
    Validated { via: Via, cases: usize },
    Mismatch { detail: String },
    Failed { stage: &'static str, reason: String },
}

/// How many vectors to try.
#[derive(Clone, Copy, Debug)]
pub struct CaseCounts {
    /// Random cases (plus edge patterns) for intrinsics without an immediate.
    pub random: usize,
    /// Cases per immediate or lane value.
    pub per_immediate: usize,
}

impl Default for CaseCounts {
    fn default() -> Self {
        CaseCounts { random: 48, per_immediate: 6 }
    }
}

/// Test vectors for `sema`: random and edge values; with an immediate,
/// cases for every value in its range.
pub fn test_cases(sema: &Semantics, counts: CaseCounts) -> Vec<TestCase> {
    let mut all = cases::generate(sema, counts.random, counts.per_immediate);
    if let Some(a) = sema.args.iter().find(|a| a.kind == ArgKind::Immediate) {
        if let Some((lo, hi)) = a.imm_range {
            all.retain(|c| c.imm.is_some_and(|v| i64::from(v) >= lo && i64::from(v) <= hi));
        }
    }
    all
}

fn le_bytes(v: &BigUint, n: u32) -> Vec<u8> {
    let mut b = v.to_bytes_le();
    b.resize(n as usize, 0);
    b
}

fn hex(v: &BigUint, width: u32) -> String {
    format!("0x{:0>w$}", v.to_str_radix(16), w = width.div_ceil(4) as usize)
}

/// Validates every bound intrinsic with semantics (others get `None`).
pub fn validate(bound: &[Bound], cfg: &HarnessConfig, counts: CaseCounts) -> Vec<Option<ArmOutcome>> {
    let with: Vec<usize> = (0..bound.len()).filter(|k| bound[*k].result.is_ok()).collect();
    let items: Vec<(&Intrinsic, &Semantics)> =
        with.iter().map(|k| (&bound[*k].intrinsic, bound[*k].result.as_ref().expect("has semantics"))).collect();
    let expected: Vec<Vec<Expected>> = with
        .iter()
        .map(|k| {
            bound[*k]
                .words
                .iter()
                .map(|(imm, word)| Expected { imm: *imm, word: *word, mask: bound[*k].register_mask })
                .collect()
        })
        .collect();
    let outcomes = validate_items(&items, &expected, cfg, counts);
    let mut out = vec![None; bound.len()];
    for (k, o) in with.into_iter().zip(outcomes) {
        out[k] = Some(o);
    }
    out
}

/// Validates `(intrinsic, semantics)` pairs whose instruction words are `expected`.
pub fn validate_items(
    items: &[(&Intrinsic, &Semantics)],
    expected: &[Vec<Expected>],
    cfg: &HarnessConfig,
    counts: CaseCounts,
) -> Vec<ArmOutcome> {
    let cases: Vec<Vec<TestCase>> = items.iter().map(|(_, s)| test_cases(s, counts)).collect();
    let harness_items: Vec<HarnessItem> = items
        .iter()
        .zip(&cases)
        .zip(expected)
        .map(|(((i, s), cs), ex)| HarnessItem {
            intrinsic: i,
            expected: ex.clone(),
            cases: cs
                .iter()
                .map(|c| HarnessCase {
                    imm: c.imm.map(i64::from),
                    args: s
                        .args
                        .iter()
                        .zip(&c.args)
                        .filter(|(a, _)| a.kind != ArgKind::Immediate)
                        .map(|(a, v)| le_bytes(v, a.width / 8))
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let runs = execute(&harness_items, cfg);
    items
        .iter()
        .zip(&cases)
        .zip(runs)
        .map(|(((_, sema), cs), run)| match run {
            Err(f) => ArmOutcome::Failed { stage: f.stage, reason: f.reason },
            Ok(ex) => compare(sema, cs, &ex.results, ex.via),
        })
        .collect()
}

/// Runs the interpreter on every case and compares with the emulator's results.
pub fn compare(sema: &Semantics, cases: &[TestCase], results: &[Vec<u8>], via: Via) -> ArmOutcome {
    let width = sema.result.width;
    if results.len() != cases.len() {
        return ArmOutcome::Failed {
            stage: "run",
            reason: format!("{} results for {} cases", results.len(), cases.len()),
        };
    }
    let mask = (BigUint::from(1u8) << width) - 1u8;
    for (case, bytes) in cases.iter().zip(results) {
        let hw = BigUint::from_bytes_le(bytes) & &mask;
        let mut dom = Concrete;
        let ours = match Machine::new(&mut dom, sema).run(&case.args) {
            Ok(v) => v,
            Err(e) => return ArmOutcome::Failed { stage: "eval", reason: e.to_string() },
        };
        if ours != hw {
            let args: Vec<String> =
                sema.args.iter().zip(&case.args).map(|(a, v)| format!("{}={}", a.name, hex(v, a.width))).collect();
            return ArmOutcome::Mismatch {
                detail: format!(
                    "emulator {} interpreter {} for {}",
                    hex(&hw, width),
                    hex(&ours, width),
                    args.join(" ")
                ),
            };
        }
    }
    ArmOutcome::Validated { via, cases: cases.len() }
}
