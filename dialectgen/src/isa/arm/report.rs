//! The ARM front end's report: what is in scope, what was bound to which
//! encoding and execute block, and what validation found.

use super::front::ArmFrontEnd;
use super::harness::Via;
use super::intrinsics::Intrinsic;
use super::validate::ArmOutcome;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    pub in_scope: usize,
    pub semantics: usize,
    pub validated: usize,
    pub mismatched: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub name: String,
    pub stage: String,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// intrinsic → instruction (assembly) → encoding → execute block.
#[derive(Clone, Debug, Serialize)]
pub struct Mapping {
    pub intrinsic: String,
    pub assembly: Option<String>,
    pub encoding: Option<String>,
    pub execute: Option<String>,
    /// `validated`, `mismatch`, or the failing stage.
    pub status: String,
    /// How the instruction was executed: through the intrinsic or inline asm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArmReport {
    pub isa: &'static str,
    pub total_intrinsics: usize,
    pub in_scope: usize,
    /// Exclusions by reason (`floating_point`, …) with the intrinsics.
    pub excluded: BTreeMap<String, Vec<String>>,
    pub excluded_by_correction: BTreeMap<String, String>,
    pub semantics: usize,
    pub validated: usize,
    pub mismatched: usize,
    pub validated_via_inline_asm: usize,
    /// Distinct encodings and execute blocks the validated intrinsics use.
    pub encodings: usize,
    pub execute_bodies: usize,
    pub by_group: BTreeMap<String, Counts>,
    pub by_form: BTreeMap<String, Counts>,
    pub failures: Vec<Failure>,
    pub mismatches: Vec<Failure>,
    pub mapping: Vec<Mapping>,
}

/// The forms an intrinsic has (an intrinsic may have several).
pub fn forms(i: &Intrinsic) -> Vec<&'static str> {
    let m = i.instructions.first().map(String::as_str).unwrap_or("");
    let mut f = Vec::new();
    if i.args.iter().any(|a| a.range.is_some()) {
        f.push("immediate");
    }
    if m.starts_with("SQ") || m.starts_with("UQ") || m.starts_with("SUQ") || m.starts_with("USQ") {
        f.push("saturating");
    }
    let arg_elem = i.args.iter().filter(|a| a.range.is_none()).map(|a| a.c_type.elem_bits).max().unwrap_or(0);
    if arg_elem != 0 && arg_elem != i.ret.elem_bits && !m.contains("DOT") && !m.contains("MMLA") {
        f.push("widening_narrowing");
    }
    if i.name.contains("_high") {
        f.push("high");
    }
    if i.ret.lanes == 1 && i.args.iter().all(|a| a.c_type.lanes == 1) {
        f.push("scalar");
    }
    if i.operands.contains('[') {
        f.push("by_element");
    }
    let core = m.trim_start_matches("SQ").trim_start_matches("UQ").trim_start_matches('S').trim_start_matches('U');
    if core.starts_with('R') || m.contains("RSH") || m.contains("RDM") || m.contains("RHADD") {
        f.push("rounding");
    }
    if m.ends_with('P') || m.contains("ADDLP") || m.contains("ADALP") {
        f.push("pairwise");
    }
    if m.ends_with('V') && m != "MOV" {
        f.push("across_vector");
    }
    if m == "TBL" || m == "TBX" {
        f.push("table_lookup");
    }
    if m.contains("DOT") || m.contains("MMLA") {
        f.push("dot_matrix");
    }
    if f.is_empty() {
        f.push("plain");
    }
    f
}

/// Builds the report; `outcomes` holds one verdict per intrinsic with
/// semantics, in order (empty when not validated).
pub fn build(front: &ArmFrontEnd, outcomes: &[Option<ArmOutcome>]) -> ArmReport {
    let mut r = scope_report(front);
    let mut encodings = std::collections::BTreeSet::new();
    let mut bodies = std::collections::BTreeSet::new();
    for (k, b) in front.bound.iter().enumerate() {
        let i = &b.intrinsic;
        let buckets = Buckets::of(i);
        buckets.bump(&mut r, &|c| c.in_scope += 1);
        let (status, via) = match (&b.result, outcomes.get(k).cloned().flatten()) {
            (Err(f), _) => {
                r.failures.push(Failure {
                    name: i.name.clone(),
                    stage: f.stage.to_string(),
                    reason: f.message.clone(),
                    location: f.location.clone(),
                });
                (f.stage.to_string(), None)
            }
            (Ok(_), o) => {
                r.semantics += 1;
                buckets.bump(&mut r, &|c| c.semantics += 1);
                let (status, via) = validation_status(&mut r, &buckets, b, o);
                // Only a validated intrinsic has a `via`.
                if via.is_some() {
                    encodings.insert(b.encoding.clone());
                    bodies.insert(b.instruction.clone());
                }
                (status, via)
            }
        };
        r.mapping.push(Mapping {
            intrinsic: i.name.clone(),
            assembly: b.assembly.clone(),
            encoding: b.encoding.clone(),
            execute: b.instruction.clone(),
            status,
            via,
        });
    }
    r.encodings = encodings.len();
    r.execute_bodies = bodies.len();
    r
}

/// The report with the front end's totals and exclusions, nothing counted yet.
fn scope_report(front: &ArmFrontEnd) -> ArmReport {
    let mut excluded: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, e) in &front.excluded {
        excluded.entry(e.key().to_string()).or_default().push(i.name.clone());
    }
    let excluded_by_correction = front.corrected_out.iter().map(|(i, r)| (i.name.clone(), r.clone())).collect();
    ArmReport {
        isa: "arm",
        total_intrinsics: front.total,
        in_scope: front.bound.len(),
        excluded,
        excluded_by_correction,
        semantics: 0,
        validated: 0,
        mismatched: 0,
        validated_via_inline_asm: 0,
        encodings: 0,
        execute_bodies: 0,
        by_group: BTreeMap::new(),
        by_form: BTreeMap::new(),
        failures: Vec::new(),
        mismatches: Vec::new(),
        mapping: Vec::new(),
    }
}

/// The counts an intrinsic adds to: its group's and each of its forms'.
struct Buckets {
    group: String,
    forms: Vec<String>,
}

impl Buckets {
    fn of(i: &Intrinsic) -> Buckets {
        let group = i.group.split('|').next().unwrap_or("").to_string();
        let forms = forms(i).into_iter().map(String::from).collect();
        Buckets { group, forms }
    }

    /// Applies `f` to the group's counts and to every form's.
    fn bump(&self, r: &mut ArmReport, f: &dyn Fn(&mut Counts)) {
        f(r.by_group.entry(self.group.clone()).or_default());
        for key in &self.forms {
            f(r.by_form.entry(key.clone()).or_default());
        }
    }
}

/// Counts the validation outcome of an intrinsic with semantics; its
/// mapping status (`validated`, `mismatch`, `not_validated` or the failing
/// stage) and, when validated, how the instruction was executed.
fn validation_status(
    r: &mut ArmReport,
    buckets: &Buckets,
    b: &super::front::Bound,
    o: Option<ArmOutcome>,
) -> (String, Option<String>) {
    let i = &b.intrinsic;
    match o {
        None => ("not_validated".to_string(), None),
        Some(ArmOutcome::Validated { via: v, .. }) => {
            r.validated += 1;
            buckets.bump(r, &|c| c.validated += 1);
            if v == Via::InlineAsm {
                r.validated_via_inline_asm += 1;
            }
            let via = Some(if v == Via::InlineAsm { "inline_asm" } else { "intrinsic" }.to_string());
            ("validated".to_string(), via)
        }
        Some(ArmOutcome::Mismatch { detail }) => {
            r.mismatched += 1;
            buckets.bump(r, &|c| c.mismatched += 1);
            r.mismatches.push(Failure {
                name: i.name.clone(),
                stage: "mismatch".into(),
                reason: detail,
                location: None,
            });
            ("mismatch".to_string(), None)
        }
        Some(ArmOutcome::Failed { stage, reason }) => {
            r.failures.push(Failure { name: i.name.clone(), stage: stage.to_string(), reason, location: None });
            (stage.to_string(), None)
        }
    }
}

impl ArmReport {
    /// A short table for the terminal.
    pub fn table(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("ARM NEON intrinsics: {}\n", self.total_intrinsics));
        for (reason, names) in &self.excluded {
            s.push_str(&format!("  excluded ({reason}): {}\n", names.len()));
        }
        if !self.excluded_by_correction.is_empty() {
            s.push_str(&format!("  excluded by correction: {}\n", self.excluded_by_correction.len()));
        }
        s.push_str(&format!("  in scope: {}\n  with semantics: {}\n", self.in_scope, self.semantics));
        s.push_str(&format!(
            "  validated: {} ({} through inline asm), mismatched: {}\n  encodings: {}, execute bodies: {}\n",
            self.validated, self.validated_via_inline_asm, self.mismatched, self.encodings, self.execute_bodies
        ));
        let mut stages: BTreeMap<&str, usize> = BTreeMap::new();
        for f in &self.failures {
            *stages.entry(f.stage.as_str()).or_default() += 1;
        }
        for (st, n) in stages {
            s.push_str(&format!("  failed at {st}: {n}\n"));
        }
        s
    }
}
