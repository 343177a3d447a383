//! The HVX front end's report: what is in scope and why the rest is not,
//! what translated, what validated under qemu-hexagon, counts by form.

use super::data::{InstrInfo, OperandClass};
use super::front::{Fault, FrontEnd};
use super::validate::HvxOutcome;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Serialize)]
pub struct FormCount {
    pub in_scope: usize,
    pub validated: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct NotValidated {
    pub tag: String,
    pub stage: String,
    pub reason: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct HvxReport {
    pub definitions: usize,
    pub excluded: BTreeMap<String, usize>,
    pub excluded_reasons: BTreeMap<String, String>,
    pub in_scope: usize,
    pub translated: usize,
    pub validated: usize,
    pub mismatched: usize,
    /// Translated but not run (no builtin in this compiler, …).
    pub not_run: usize,
    pub by_form: BTreeMap<String, FormCount>,
    pub faults: Vec<Fault>,
    pub mismatches: Vec<NotValidated>,
    pub not_run_list: Vec<NotValidated>,
    /// The macros the in-scope definitions use, with their use counts.
    pub macros_used: BTreeMap<String, usize>,
    /// Definitions whose semantics a correction replaced.
    pub corrected: Vec<String>,
    /// The manual cross-check, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manual: Option<serde_json::Value>,
}

/// Whole-vector permutes and lookups: lanes move by a data-dependent amount.
const PERMUTES: &[&str] = &[
    "V6_valign", "V6_vlalign", "V6_vror", "V6_vdelta", "V6_vrdelta", "V6_vlut", "V6_vunpack", "V6_vshuff", "V6_vdeal",
];

/// The forms an instruction has (a table row of the kind).
pub fn forms(tag: &str, info: &InstrInfo) -> Vec<&'static str> {
    let mut f = Vec::new();
    let is_in = |c: OperandClass| info.ins.iter().any(|o| o.class == c);
    let accum = |c: OperandClass| info.ins.iter().any(|o| o.class == c && o.name.ends_with("in"));
    if info.ins.iter().any(|o| o.class == OperandClass::Predicate && !o.name.ends_with("in")) {
        f.push("uses_predicate");
    }
    let q_out = info.outs.iter().any(|o| o.class == OperandClass::Predicate);
    if q_out && info.outs.len() == 1 {
        f.push(if accum(OperandClass::Predicate) { "predicate_accumulate" } else { "predicate_result" });
    }
    if info.outs.iter().any(|o| o.class == OperandClass::Pair) {
        f.push("pair_result");
    }
    if info.ins.iter().any(|o| o.class == OperandClass::Pair && !o.name.ends_with("in")) {
        f.push("pair_input");
    }
    if is_in(OperandClass::Scalar) || is_in(OperandClass::ScalarPair) {
        f.push("scalar_operand");
    }
    if info.ins.iter().any(|o| matches!(o.class, OperandClass::Immediate { .. })) {
        f.push("immediate");
    }
    if accum(OperandClass::Vector) || accum(OperandClass::Pair) {
        f.push("vector_accumulator");
    }
    if q_out && info.outs.len() == 2 {
        f.push("vector_and_carry");
    }
    if PERMUTES.iter().any(|p| tag.starts_with(p)) {
        f.push("whole_vector_permute");
    }
    f
}

pub fn build(fe: &FrontEnd, outcomes: &[Option<HvxOutcome>]) -> HvxReport {
    let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
    let mut excluded_reasons = BTreeMap::new();
    for (_, x) in &fe.excluded {
        let key = serde_json::to_value(x).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        *excluded.entry(key.clone()).or_default() += 1;
        excluded_reasons.insert(key, x.reason().to_string());
    }
    let mut by_form: BTreeMap<String, FormCount> = BTreeMap::new();
    let mut macros_used: BTreeMap<String, usize> = BTreeMap::new();
    let (mut validated, mut mismatched, mut not_run) = (0, 0, 0);
    let mut mismatches = Vec::new();
    let mut not_run_list = Vec::new();
    let mut faults = Vec::new();
    for (t, o) in fe.in_scope.iter().zip(outcomes) {
        let ok = matches!(o, Some(HvxOutcome::Validated { .. }));
        for f in forms(&t.def.tag, &fe.info[&t.def.tag]) {
            let c = by_form.entry(f.to_string()).or_default();
            c.in_scope += 1;
            c.validated += usize::from(ok);
        }
        for m in &t.macros_used {
            *macros_used.entry(m.clone()).or_default() += 1;
        }
        if let Err(f) = &t.result {
            faults.push(f.clone());
        }
        match o {
            Some(HvxOutcome::Validated { .. }) => validated += 1,
            Some(HvxOutcome::Mismatch { detail }) => {
                mismatched += 1;
                mismatches.push(NotValidated { tag: t.def.tag.clone(), stage: "compare".into(), reason: detail.clone() });
            }
            Some(HvxOutcome::NotRun { stage, reason }) => {
                not_run += 1;
                not_run_list.push(NotValidated { tag: t.def.tag.clone(), stage: stage.clone(), reason: reason.clone() });
            }
            None => {}
        }
    }
    HvxReport {
        definitions: fe.total,
        excluded,
        excluded_reasons,
        in_scope: fe.in_scope.len(),
        translated: fe.in_scope.iter().filter(|t| t.result.is_ok()).count(),
        validated,
        mismatched,
        not_run,
        by_form,
        faults,
        mismatches,
        not_run_list,
        macros_used,
        corrected: fe.in_scope.iter().filter(|t| t.corrected).map(|t| t.def.tag.clone()).collect(),
        manual: None,
    }
}

impl HvxReport {
    /// A human-readable summary.
    pub fn table(&self) -> String {
        let mut s = format!(
            "HVX definitions {}\n  excluded {}\n  in scope {}\n  translated {}\n  validated under qemu-hexagon {}\n  mismatched {}\n  not run {}\n",
            self.definitions,
            self.excluded.values().sum::<usize>(),
            self.in_scope,
            self.translated,
            self.validated,
            self.mismatched,
            self.not_run
        );
        for (k, n) in &self.excluded {
            s += &format!("  excluded: {k} {n}\n");
        }
        for (k, c) in &self.by_form {
            s += &format!("  form {k}: {} of {} validated\n", c.validated, c.in_scope);
        }
        s
    }
}
