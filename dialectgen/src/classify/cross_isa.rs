//! Classes across instruction sets: the validated instructions of every ISA
//! classified together by the same engine ([`super::engine::classify`]),
//! every membership proved by Z3 as within one ISA, and per class the ISAs
//! its members come from. A class with members of two or more ISAs is one
//! operation that each of them computes, up to the class's numbers.

use super::engine::{classify_families, Numbers, SimilarityClass};
use super::mask::MaskModel;
use crate::sema::ir::Semantics;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

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
    /// Classes by the ISAs of their members (`<isa>+<isa>`, `<isa>`, …).
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

/// A member's ISA and instruction: `<isa>/<instruction>` →
/// (`<isa>`, `<instruction>`). Members of combined classes are named so.
pub fn member_isa(member: &str) -> (&str, &str) {
    member.split_once('/').unwrap_or(("", member))
}

/// The target dialect of an ISA: `hydride_<isa>`.
pub fn dialect_of(isa: &str) -> String {
    format!("hydride_{isa}")
}

/// Every ISA's validated semantics, each named `isa/instruction`.
pub fn prefixed(isas: &[(&str, &[Semantics])]) -> Vec<Semantics> {
    isas.iter()
        .flat_map(|(isa, semantics)| {
            semantics.iter().map(move |s| Semantics { name: format!("{isa}/{}", s.name), ..s.clone() })
        })
        .collect()
}

/// Names each combined class after the class its members have within their
/// own ISA, where that name is free: the first ISA of `per_isa` with a
/// member decides, and among its members the most common class name (the
/// smallest on a tie). A combined class keeps its own semantic name when
/// the adopted one is taken. So the ops of an ISA classified alone keep
/// their names when other ISAs' members join them. Deterministic: classes
/// adopt in order of ISA, member count (most first), first member. Then a
/// class whose fingerprint suffix kept it apart from a name that is now
/// free takes that name.
pub fn adopt_isa_names(classes: &mut [SimilarityClass], per_isa: &[(&str, &[SimilarityClass])]) {
    let mut own: HashMap<String, (usize, &SimilarityClass)> = HashMap::new();
    for (rank, (isa, isa_classes)) in per_isa.iter().enumerate() {
        for c in isa_classes.iter() {
            for m in &c.members {
                own.insert(format!("{isa}/{}", m.intrinsic), (rank, c));
            }
        }
    }
    // Per class, the ISA rank and the class of that ISA whose name it would adopt.
    let proposals: Vec<Option<(usize, &SimilarityClass)>> = classes
        .iter()
        .map(|c| {
            let found: Vec<(usize, &SimilarityClass)> =
                c.members.iter().filter_map(|m| own.get(&m.intrinsic).copied()).collect();
            let rank = found.iter().map(|(r, _)| *r).min()?;
            let mut counts: BTreeMap<&str, (usize, &SimilarityClass)> = BTreeMap::new();
            for (_, class) in found.iter().filter(|(r, _)| *r == rank) {
                counts.entry(class.name.as_str()).or_insert((0, class)).0 += 1;
            }
            let best = counts.iter().max_by(|a, b| a.1 .0.cmp(&b.1 .0).then(b.0.cmp(a.0)))?.1 .1;
            Some((rank, best))
        })
        .collect();
    let mut order: Vec<usize> = (0..classes.len()).filter(|&i| proposals[i].is_some()).collect();
    order.sort_by_key(|&i| {
        let rank = proposals[i].as_ref().map_or(usize::MAX, |p| p.0);
        (rank, std::cmp::Reverse(classes[i].members.len()), classes[i].members[0].intrinsic.clone())
    });
    let mut taken: BTreeSet<String> = classes.iter().map(|c| c.name.clone()).collect();
    let mut adopted_from: Vec<Option<&SimilarityClass>> = vec![None; classes.len()];
    for i in order {
        let Some((_, source)) = proposals[i] else { continue };
        if source.name == classes[i].name || taken.contains(&source.name) {
            continue;
        }
        taken.remove(&classes[i].name);
        taken.insert(source.name.clone());
        classes[i].name = source.name.clone();
        adopted_from[i] = Some(source);
    }
    // A fingerprint that kept a class apart from a name another class has
    // since left is dropped: the class's own, or that of the class of its
    // ISA whose name it adopted.
    for (class, source) in classes.iter_mut().zip(adopted_from) {
        let base =
            super::naming::without_fingerprint(class).or_else(|| source.and_then(super::naming::without_fingerprint));
        if let Some(base) = base.filter(|b| !taken.contains(b)) {
            taken.remove(&class.name);
            taken.insert(base.clone());
            class.name = base;
        }
    }
}

/// Classifies the instructions of all `isas` (name, validated semantics)
/// together: the classes, members named `isa/instruction`, and what they
/// are. Masks are write masks (of the ISAs that have them); merging
/// fits numbers of the signature only. Then an instruction joins, by
/// itself, a larger class of other ISAs whose template computes it
/// (proved), so that one ISA writing signed and unsigned forms as one
/// template does not keep them apart from another ISA's signed and
/// unsigned classes. Classes take the names their
/// members' classes have in `names_from` where free ([`adopt_isa_names`]).
pub fn classify_across(
    isas: &[(&str, &[Semantics])],
    names_from: &[(&str, &[SimilarityClass])],
    timeout_ms: u32,
) -> (Vec<SimilarityClass>, CombinedClasses) {
    let all = prefixed(isas);
    let isa_of = |name: &str| member_isa(name).0.to_string();
    let (classes, stats) =
        classify_families(&all, timeout_ms, MaskModel::WriteMask, Numbers::OfSignature, Some(&isa_of));
    let mut classes = classes;
    adopt_isa_names(&mut classes, names_from);
    let mut by_isas: BTreeMap<String, usize> = BTreeMap::new();
    let mut cross = Vec::new();
    for class in &classes {
        let mut members: BTreeMap<String, usize> = BTreeMap::new();
        let mut examples: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in &class.members {
            let (isa, name) = member_isa(&m.intrinsic);
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
    let summary = CombinedClasses {
        instructions: all.len(),
        classes: classes.len(),
        classes_percent: if all.is_empty() {
            0.0
        } else {
            (1000.0 * classes.len() as f64 / all.len() as f64).round() / 10.0
        },
        unproved_pairs: stats.unproved_pairs,
        rejected: stats.rejected,
        cross_isa_classes: cross.len(),
        classes_by_member_isas: by_isas,
        cross_isa: cross,
    };
    (classes, summary)
}
