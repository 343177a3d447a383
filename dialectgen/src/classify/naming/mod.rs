//! Names for similarity classes, derived from what their template computes:
//! the operation, how elements are read (signed, unsigned, mixed),
//! widening or narrowing, saturation, rounding, pairwise or lane-wise
//! structure. Equal templates give equal names on every regeneration, and
//! the name of one class does not depend on which other classes exist,
//! except where two classes would share a name: then words that tell them
//! apart are added ([`distinguish`]), and where no word does, each takes a
//! fingerprint of its template as a suffix.
//!
//! Nothing here knows an ISA: the features are read off the semantics IR.

mod distinguish;
mod features;
mod reads;
mod scan;
mod shape;

use super::class::{member_semantics, SimilarityClass};
use crate::sema::ir::ArgKind;
use crate::sema::ir::Semantics;
use crate::sema::print::semantics_to_string;
use features::{Features, Op, ShiftBy, Sign};
use reads::reads_any_argument;
use scan::features;
use shape::{resize_word, shape_word};
use std::collections::{BTreeMap, BTreeSet};

/// The name a class's semantics give it, before any collision suffix.
pub fn semantic_name(class: &SimilarityClass) -> String {
    let t = &class.template;
    let f = features(t);
    // Every member's concrete semantics, for what widths and shapes they share.
    let instances: Vec<_> = class.members.iter().map(|m| member_semantics(class, m)).collect();
    let resize = resize_word(&instances);
    let mut words: Vec<&str> = Vec::new();
    let mask_only = t.result.kind == ArgKind::Mask
        && t.args.iter().all(|a| matches!(a.kind, ArgKind::Mask | ArgKind::Immediate | ArgKind::Scalar));
    if mask_only {
        words.push("mask");
    }
    let sign_matters = operation_words(t, &f, resize, &mut words);
    modifier_words(t, &f, resize, sign_matters, mask_only, &mut words);
    if let Some(w) = shape_word(&instances) {
        words.push(w);
    }
    if f.in_lanes {
        words.push("in_lanes");
    }
    words.join("_")
}

/// The words of the operation itself (`dot_acc`, `avg`, `pack`, `select`,
/// …); whether its signedness matters.
fn operation_words<'f>(t: &Semantics, f: &'f Features, resize: Option<&'static str>, words: &mut Vec<&'f str>) -> bool {
    let has = |o: Op| f.ops.contains(&o);
    let mut sign_matters = f.saturates || f.ordered_by_parameter;
    if has(Op::Galois) {
        words.push("galois_affine_inv");
    } else if has(Op::Mul) && f.products >= 2 && (has(Op::Add) || has(Op::AddOrSub)) {
        words.push("dot");
        let registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector);
        if registers.clone().any(|a| !f.factors.contains(&a.name)) {
            words.push("acc");
        }
        sign_matters = true;
    } else if has(Op::Abs) && has(Op::Sub) && has(Op::Add) && !has(Op::Mul) {
        words.push("sad");
        sign_matters = true;
    } else if has(Op::Add) && has(Op::Shr) && f.rounds && !has(Op::Mul) && f.ops.len() == 2 {
        words.push("avg");
        sign_matters = true;
    } else if has(Op::Mul) && (has(Op::Shr) || f.drops_low_bits) {
        words.push("mul_high");
        sign_matters = true;
    } else if has(Op::Shl) && has(Op::Shr) && has(Op::Or) && !has(Op::Mul) {
        // Registers shifted (not only giving per-element amounts).
        let mut registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector).count();
        if f.shift_by.contains(&ShiftBy::PerElement) {
            registers -= 1;
        }
        words.push(if registers <= 1 { "rotate" } else { "funnel_shift" });
    } else if f.counts_while {
        words.push("count_leading");
    } else if !f.ops.is_empty() {
        sign_matters |= listed_op_words(f, words);
    } else if f.extends && !f.saturates && !f.truncates {
        words.push("extend");
        sign_matters = true;
    } else if f.saturates {
        let registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector).count();
        words.push(match resize {
            Some("narrow") if registers >= 2 => "pack",
            Some("narrow") => "narrow",
            _ => "convert",
        });
        sign_matters = true;
    } else if f.truncates {
        words.push("truncate");
    } else if f.data_index {
        words.push("permute_var");
    } else if f.broadcasts {
        words.push("broadcast");
    } else if f.interleaves {
        words.push("interleave");
    } else if f.conditional {
        words.push("select");
    } else if f.chosen_by_immediate {
        words.push("blend");
    } else if f.case_on_argument {
        words.push("permute_imm");
    } else if !reads_any_argument(t) {
        words.push("zero");
    } else {
        words.push("move");
    }
    sign_matters
}

/// The words of an operation read off its ops (`add`, `min`, `add_or_sub`,
/// `compare_gt`); whether its signedness matters.
fn listed_op_words<'f>(f: &'f Features, words: &mut Vec<&'f str>) -> bool {
    let has = |o: Op| f.ops.contains(&o);
    let mut sign_matters = false;
    for o in &f.ops {
        if matches!(o, Op::Min | Op::Max | Op::Shr | Op::Div | Op::Rem | Op::Mul | Op::Shift) {
            sign_matters = true;
        }
        if *o == Op::Compare && f.predicates.iter().any(|p| !matches!(*p, "eq" | "ne")) {
            sign_matters = true;
        }
    }
    let shown: Vec<&str> = f.ops.iter().map(|o| o.word()).take(4).collect();
    if f.alternatives && shown.len() > 1 {
        // `add_or_sub`: a parameter picks the operation.
        for (i, w) in shown.iter().enumerate() {
            if i > 0 {
                words.push("or");
            }
            words.push(w);
        }
    } else {
        words.extend(shown);
    }
    if has(Op::Compare) && f.predicates.len() == 1 {
        words.extend(f.predicates.iter());
    }
    sign_matters
}

/// The words after the operation: pairwise, saturation, how a shift is
/// given, rounding, a data index, signedness, widening or narrowing, a mask
/// result.
fn modifier_words<'f>(
    t: &Semantics,
    f: &'f Features,
    resize: Option<&'static str>,
    sign_matters: bool,
    mask_only: bool,
    words: &mut Vec<&'f str>,
) {
    let has = |o: Op| f.ops.contains(&o);
    if f.pairwise && !words.contains(&"dot") && !words.contains(&"sad") {
        words.push("pairwise");
    }
    if f.saturates {
        words.push("sat");
    }
    if has(Op::Shl) || has(Op::Shr) || has(Op::Shift) {
        match f.shift_by.iter().collect::<Vec<_>>().as_slice() {
            [ShiftBy::Immediate] => words.push("by_imm"),
            [ShiftBy::Uniform] => words.push("by_scalar"),
            _ => {}
        }
    }
    if f.rounds && !words.contains(&"avg") {
        words.push("round");
    }
    if !words.contains(&"permute_var") && f.data_index {
        words.push("var_index");
    }
    if sign_matters {
        let said = [&f.signs, &f.explicit_signs, &f.extend_signs].into_iter().find(|s| !s.is_empty());
        let said = said.unwrap_or(&f.signs);
        let signs: Vec<Sign> = said.iter().copied().collect();
        match signs.as_slice() {
            [Sign::Signed] => words.push("s"),
            [Sign::Unsigned] => words.push("u"),
            [Sign::Signed, Sign::Unsigned] => words.push("su"),
            _ => {}
        }
    }
    if let Some(w) = resize.filter(|_| t.result.kind != ArgKind::Mask) {
        let says_it = ["extend", "narrow", "truncate", "pack", "convert"];
        if !words.iter().any(|w| says_it.contains(w)) {
            words.push(w);
        }
    }
    if t.result.kind == ArgKind::Mask && !mask_only {
        words.push("to_mask");
    }
}

/// A fingerprint of a class's template (FNV-1a of its printed semantics,
/// mask forms included), four hex digits or more where four collide.
fn fingerprint(class: &SimilarityClass) -> u64 {
    let text = format!("{}\n{:?}", semantics_to_string(&class.template), class.maskings);
    crate::fnv::fnv1a(text.as_bytes())
}

/// The name `class` has without its fingerprint suffix, when it has one.
pub fn without_fingerprint(class: &SimilarityClass) -> Option<String> {
    let (base, suffix) = class.name.rsplit_once('_')?;
    let print = format!("{:016x}", fingerprint(class));
    (suffix.len() >= 4 && print.starts_with(suffix)).then(|| base.to_string())
}

/// Names every class by [`semantic_name`]; classes that would share a name
/// take the words that tell them apart ([`distinguish::DISTINGUISHERS`]),
/// and those no word tells apart their template's fingerprint as a suffix
/// (as many hex digits as keep them apart), so a name never depends on the
/// order classes come in.
pub fn name_classes(classes: &mut [SimilarityClass]) {
    let mut final_names: Vec<String> = classes.iter().map(semantic_name).collect();
    for distinguisher in distinguish::DISTINGUISHERS {
        for (base, members) in collisions(&final_names) {
            let words: Vec<Option<String>> = members.iter().map(|&i| distinguisher(&classes[i])).collect();
            if words.iter().collect::<BTreeSet<_>>().len() < 2 {
                continue;
            }
            let proposed: Vec<String> =
                words.iter().map(|w| w.as_ref().map_or(base.clone(), |w| format!("{base}_{w}"))).collect();
            // A word that would take the name of a class outside the group is not used.
            let outside: BTreeSet<&str> =
                final_names.iter().enumerate().filter(|(i, _)| !members.contains(i)).map(|(_, n)| n.as_str()).collect();
            if proposed.iter().any(|n| *n != base && outside.contains(n.as_str())) {
                continue;
            }
            for (&i, name) in members.iter().zip(proposed) {
                final_names[i] = name;
            }
        }
    }
    for (base, members) in collisions(&final_names) {
        let prints: Vec<u64> = members.iter().map(|&i| fingerprint(&classes[i])).collect();
        let digits = (4..=16)
            .find(|d| {
                let cut: BTreeSet<String> = prints.iter().map(|p| format!("{p:016x}")[..*d].to_string()).collect();
                cut.len() == prints.len()
            })
            .unwrap_or(16);
        for (&i, p) in members.iter().zip(&prints) {
            final_names[i] = format!("{base}_{}", &format!("{p:016x}")[..digits]);
        }
    }
    // Identical templates and mask forms (never expected): first member's name decides the order.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut order: Vec<usize> = (0..classes.len()).collect();
    order.sort_by(|&a, &b| classes[a].members[0].intrinsic.cmp(&classes[b].members[0].intrinsic));
    for i in order {
        let n = seen.entry(final_names[i].clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            final_names[i] = format!("{}_{n}", final_names[i]);
        }
    }
    for (c, n) in classes.iter_mut().zip(final_names) {
        c.name = n;
    }
}

/// The names more than one class has, with those classes.
fn collisions(names: &[String]) -> BTreeMap<String, Vec<usize>> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, n) in names.iter().enumerate() {
        groups.entry(n.clone()).or_default().push(i);
    }
    groups.retain(|_, members| members.len() > 1);
    groups
}
