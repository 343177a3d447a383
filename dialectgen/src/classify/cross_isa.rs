//! Classes across instruction sets: the validated instructions of every ISA
//! classified together by the same engine ([`super::engine::classify`]),
//! every membership proved by Z3 as within one ISA, and per class the ISAs
//! its members come from. A class with members of two or more ISAs is one
//! operation that each of them computes, up to the class's numbers.

use super::engine::{classify, Numbers};
use super::mask::MaskModel;
use crate::sema::ir::Semantics;
use serde::Serialize;
use std::collections::BTreeMap;

/// How many examples of each ISA a cross-ISA class lists.
const EXAMPLES: usize = 3;

#[derive(Debug, Serialize)]
pub struct CombinedClasses {
    pub instructions: usize,
    pub classes: usize,
    /// Classes per instruction, in percent.
    pub classes_percent: f64,
    pub unproved_pairs: usize,
    /// Instructions left out (`isa/name`): a canonical form not proved equal.
    pub rejected: Vec<String>,
    /// Classes with members of more than one ISA.
    pub cross_isa_classes: usize,
    /// Classes by the ISAs of their members (`arm+hvx+x86`, `x86`, …).
    pub classes_by_member_isas: BTreeMap<String, usize>,
    /// The cross-ISA classes: name, member counts and examples per ISA.
    pub cross_isa: Vec<CrossIsaClass>,
}

#[derive(Debug, Serialize)]
pub struct CrossIsaClass {
    pub name: String,
    pub members: BTreeMap<String, usize>,
    pub examples: BTreeMap<String, Vec<String>>,
}

/// Classifies the instructions of all `isas` (name, validated semantics)
/// together. Masks are x86's write masks (the other ISAs have none);
/// merging fits numbers of the signature only.
pub fn classify_across(isas: &[(&str, &[Semantics])], timeout_ms: u32) -> CombinedClasses {
    let all: Vec<Semantics> = isas
        .iter()
        .flat_map(|(isa, semantics)| {
            semantics.iter().map(move |s| Semantics { name: format!("{isa}/{}", s.name), ..s.clone() })
        })
        .collect();
    let (classes, stats) = classify(&all, timeout_ms, MaskModel::WriteMask, Numbers::OfSignature);
    let mut by_isas: BTreeMap<String, usize> = BTreeMap::new();
    let mut cross = Vec::new();
    for class in &classes {
        let mut members: BTreeMap<String, usize> = BTreeMap::new();
        let mut examples: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in &class.members {
            let (isa, name) = m.intrinsic.split_once('/').expect("named isa/intrinsic above");
            *members.entry(isa.to_string()).or_default() += 1;
            let list = examples.entry(isa.to_string()).or_default();
            if list.len() < EXAMPLES {
                list.push(name.to_string());
            }
        }
        *by_isas.entry(members.keys().cloned().collect::<Vec<_>>().join("+")).or_default() += 1;
        if members.len() > 1 {
            cross.push(CrossIsaClass { name: class.name.clone(), members, examples });
        }
    }
    CombinedClasses {
        instructions: all.len(),
        classes: classes.len(),
        classes_percent: if all.is_empty() { 0.0 } else { (1000.0 * classes.len() as f64 / all.len() as f64).round() / 10.0 },
        unproved_pairs: stats.unproved_pairs,
        rejected: stats.rejected,
        cross_isa_classes: cross.len(),
        classes_by_member_isas: by_isas,
        cross_isa: cross,
    }
}
