//! Validation of HVX semantics: every instruction with a builtin runs under
//! qemu-hexagon on random and edge vectors and every immediate value, and
//! each result is compared bit for bit with the interpreter.

use super::front::Translated;
use super::harness::{execute, result_bits, Entry, HarnessConfig};
use crate::eval::{Concrete, Machine};
use crate::sema::ir::{ArgKind, Semantics};
use crate::validate::cases::{self, TestCase};
use num_bigint::BigUint;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum HvxOutcome {
    Validated { cases: usize },
    Mismatch { detail: String },
    /// Not run: no builtin in this compiler, or the harness could not pass it.
    NotRun { stage: String, reason: String },
}

/// Random cases (besides 14 edge patterns) without an immediate; cases per
/// immediate value with one.
pub const RANDOM_CASES: usize = 48;
pub const CASES_PER_IMMEDIATE: usize = 6;

/// Test vectors: random and edge values; with an immediate, cases for every
/// value the instruction's field holds.
pub fn test_cases(sema: &Semantics) -> Vec<TestCase> {
    let mut all = cases::generate(sema, RANDOM_CASES, CASES_PER_IMMEDIATE);
    if let Some(a) = sema.args.iter().find(|a| a.kind == ArgKind::Immediate) {
        if let Some((lo, hi)) = a.imm_range {
            all.retain(|c| c.imm.is_some_and(|v| i64::from(v) >= lo && i64::from(v) <= hi));
        }
    }
    all
}

fn hex(v: &BigUint, width: u32) -> String {
    format!("0x{:0>w$}", v.to_str_radix(16), w = width.div_ceil(4) as usize)
}

/// Validates every translated instruction (`None` for those without semantics).
pub fn validate(translated: &[Translated], info: &std::collections::BTreeMap<String, super::data::InstrInfo>, cfg: &HarnessConfig) -> Vec<Option<HvxOutcome>> {
    let cases: Vec<Vec<TestCase>> =
        translated.iter().map(|t| t.result.as_ref().map(test_cases).unwrap_or_default()).collect();
    let mut entries = Vec::new();
    let mut owner = Vec::new();
    for (k, t) in translated.iter().enumerate() {
        let Ok(sema) = &t.result else { continue };
        let i = &info[&sema.name];
        let mut imms: Vec<Option<u32>> = cases[k].iter().map(|c| c.imm).collect();
        imms.dedup();
        for imm in imms {
            let cs: Vec<&TestCase> = cases[k].iter().filter(|c| c.imm == imm).collect();
            entries.push(Entry { sema, info: i, imm, cases: cs });
            owner.push(k);
        }
    }
    let results = execute(&entries, cfg, 0);
    let mut out: Vec<Option<HvxOutcome>> = vec![None; translated.len()];
    for ((e, k), r) in entries.iter().zip(&owner).zip(results) {
        let verdict = match r {
            Err((stage, reason)) => HvxOutcome::NotRun { stage: stage.to_string(), reason },
            Ok(bytes) => compare(e.sema, e.info, &e.cases, &bytes),
        };
        let slot = &mut out[*k];
        *slot = Some(match (slot.take(), verdict) {
            (None, v) => v,
            (Some(HvxOutcome::Validated { cases: a }), HvxOutcome::Validated { cases: b }) => HvxOutcome::Validated { cases: a + b },
            (Some(prev @ (HvxOutcome::Mismatch { .. } | HvxOutcome::NotRun { .. })), _) => prev,
            (Some(_), v) => v,
        });
    }
    out
}

/// Runs the interpreter on every case and compares with the emulator's results.
pub fn compare(sema: &Semantics, info: &super::data::InstrInfo, cases: &[&TestCase], results: &[Vec<u8>]) -> HvxOutcome {
    let width = sema.result.width;
    for (case, bytes) in cases.iter().zip(results) {
        let hw = result_bits(info, bytes);
        let mut dom = Concrete;
        let ours = match Machine::new(&mut dom, sema).run(&case.args) {
            Ok(v) => v,
            Err(e) => return HvxOutcome::NotRun { stage: "eval".into(), reason: e.to_string() },
        };
        if ours != hw {
            let args: Vec<String> =
                sema.args.iter().zip(&case.args).map(|(a, v)| format!("{}={}", a.name, hex(v, a.width))).collect();
            return HvxOutcome::Mismatch {
                detail: format!("emulator {} interpreter {} for {}", hex(&hw, width), hex(&ours, width), args.join(" ")),
            };
        }
    }
    HvxOutcome::Validated { cases: cases.len() }
}
