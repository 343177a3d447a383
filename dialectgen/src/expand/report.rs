//! What `hydride gen` records of the expansions: per dialect, how many ops
//! have one (each checked against its semantics at up to
//! [`super::check::MAX_IMMEDIATES`] immediates on the validation's edge and
//! random vectors) and, by op, why the others have none.

use super::check::check;
use crate::design::build::op_name;
use crate::design::DialectDesign;
use crate::sema::ir::Semantics;
use crate::validate::cases::generate;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};

/// Random cases per instruction (besides the edge cases), and per immediate.
const RANDOM_CASES: usize = 6;
const CASES_PER_IMMEDIATE: usize = 1;

/// Each op of `dialect` (made from `semantics`) and why it has no
/// expansion (`None`: it has one, checked).
pub fn isa_expansions(dialect: &str, semantics: &[Semantics]) -> BTreeMap<String, Option<String>> {
    semantics
        .par_iter()
        .map(|s| {
            let cases = generate(s, RANDOM_CASES, CASES_PER_IMMEDIATE);
            let why = check(s, &cases).err().map(|e| e.to_string());
            (format!("{dialect}.{}", op_name(&s.name)), why)
        })
        .collect()
}

/// The report's entry for one dialect: ops, expanded, and the reasons by
/// kind and by op.
fn entry(ops: usize, missing: &BTreeMap<String, String>) -> serde_json::Value {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for why in missing.values() {
        *kinds.entry(kind(why)).or_default() += 1;
    }
    serde_json::json!({ "ops": ops, "expanded": ops - missing.len(), "missing_by_reason": kinds, "missing": missing })
}

fn kind(why: &str) -> String {
    let short = if why.starts_with("no expansion") { why.split(": ").nth(1).unwrap_or(why) } else { why };
    short.split(|c: char| c == ':' || c == '(').next().unwrap_or(short).trim().to_string()
}

/// The whole report: autollvm (an op is expanded when every instruction
/// its variants name is) and each ISA's dialect.
pub fn report(autollvm: &DialectDesign, per_isa: &[(String, BTreeMap<String, Option<String>>)]) -> serde_json::Value {
    let all: HashMap<&str, &Option<String>> =
        per_isa.iter().flat_map(|(_, ops)| ops.iter().map(|(op, why)| (op.as_str(), why))).collect();
    let mut missing = BTreeMap::new();
    for op in &autollvm.ops {
        let unexpanded: Vec<&str> = op
            .variants
            .iter()
            .filter_map(|v| v.target.as_ref())
            .map(|t| t.op.as_str())
            .filter(|t| all.get(t).is_none_or(|why| why.is_some()))
            .collect();
        if !unexpanded.is_empty() {
            missing.insert(
                format!("autollvm.{}", op.name),
                format!("some of its instructions have none: {}", unexpanded.join(", ")),
            );
        }
    }
    let mut out = serde_json::Map::new();
    out.insert("autollvm".into(), entry(autollvm.ops.len(), &missing));
    for (dialect, ops) in per_isa {
        let missing: BTreeMap<String, String> =
            ops.iter().filter_map(|(op, why)| why.as_ref().map(|w| (op.clone(), w.clone()))).collect();
        out.insert(dialect.clone(), entry(ops.len(), &missing));
    }
    serde_json::Value::Object(out)
}
