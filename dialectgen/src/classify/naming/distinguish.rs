//! Words that tell apart classes whose semantics give the same name: what
//! their operands are, whether they take write masks, whether they round,
//! how far results widen, how many products meet in one element, how elements are read,
//! and the result's element width. Each distinguisher is asked only of a
//! group of classes that share a name, and its word is added only when it
//! splits that group, so a class's name still does not depend on classes
//! it does not collide with. Whether a class takes write masks is not
//! among them: the masked form is the common one, and a word on it would
//! rename the ops other ISAs adopt names from.

use super::features::Sign;
use super::reads::arithmetic_by_one_element;
use super::scan::features;
use super::shape::element_widths;
use crate::classify::class::{member_semantics, SimilarityClass};
use crate::sema::ir::{ArgKind, BinOp, Expr};

/// One way of telling classes apart: a word for a class, or none where the
/// class has nothing to say on it.
pub(super) type Distinguisher = fn(&SimilarityClass) -> Option<String>;

/// The distinguishers in the order they are tried: the earlier, the more a
/// reader sees in the word.
pub(super) const DISTINGUISHERS: &[Distinguisher] = &[
    operand_count,
    immediate_operand,
    scalar_operand,
    mask_operand,
    element_broadcast,
    rounding_constant,
    widening_factor,
    products_per_element,
    element_signs,
    result_element_width,
    operand_element_width,
];

/// How many values (registers, masks, scalars; not immediates) the op takes.
fn operand_count(class: &SimilarityClass) -> Option<String> {
    let n = class.template.args.iter().filter(|a| a.kind != ArgKind::Immediate).count();
    Some(match n {
        0 => "nullary".into(),
        1 => "unary".into(),
        2 => "binary".into(),
        3 => "ternary".into(),
        n => format!("{n}ary"),
    })
}

fn has_operand(class: &SimilarityClass, kind: ArgKind) -> bool {
    class.template.args.iter().any(|a| a.kind == kind)
}

fn immediate_operand(class: &SimilarityClass) -> Option<String> {
    has_operand(class, ArgKind::Immediate).then(|| "imm".into())
}

fn scalar_operand(class: &SimilarityClass) -> Option<String> {
    has_operand(class, ArgKind::Scalar).then(|| "with_scalar".into())
}

fn mask_operand(class: &SimilarityClass) -> Option<String> {
    has_operand(class, ArgKind::Mask).then(|| "with_mask".into())
}

/// One element of an operand used for every result element: moved to every
/// lane (a lane broadcast) or an operand of every element's arithmetic
/// (`vmla_n`'s scalar, a multiply by lane).
fn element_broadcast(class: &SimilarityClass) -> Option<String> {
    let by_element = features(&class.template).broadcasts || arithmetic_by_one_element(&class.template);
    by_element.then(|| "by_element".into())
}

/// A rounding constant computed from a shift amount (`1 << (n - 1)` added
/// before a shift right by `n`): a literal one shifted left by a value.
fn rounding_constant(class: &SimilarityClass) -> Option<String> {
    let mut template = class.template.clone();
    let mut found = false;
    let one = |e: &Expr| matches!(e, Expr::Int(n) if *n == 1.into());
    crate::sema::visit::walk_semantics_mut(
        &mut template,
        &mut |e| {
            found |= match e {
                Expr::Call { func, args } => func == "ShiftInt" && args.first().is_some_and(one),
                Expr::Binary { op: BinOp::Shl, lhs, .. } => one(lhs),
                _ => false,
            }
        },
        &mut |_| {},
    );
    found.then(|| "round".into())
}

/// The ratio of result to operand element width, where every member has the same one.
fn widening_factor(class: &SimilarityClass) -> Option<String> {
    same_in_every_member(class, |s| {
        let (reads, writes) = element_widths(s);
        let (r, w) = (*reads.first()?, *writes.first()?);
        if w > r && w % r == 0 {
            Some(format!("x{}", w / r))
        } else if r > w && r % w == 0 {
            Some(format!("by{}", r / w))
        } else {
            None
        }
    })
}

/// Products summed into one result element (`2way`, `4way`).
fn products_per_element(class: &SimilarityClass) -> Option<String> {
    let products = features(&class.template).products;
    (products >= 2).then(|| format!("{products}way"))
}

/// How the elements of sign-sensitive operations read.
fn element_signs(class: &SimilarityClass) -> Option<String> {
    let f = features(&class.template);
    let said = [&f.signs, &f.explicit_signs, &f.extend_signs].into_iter().find(|s| !s.is_empty())?;
    match said.iter().copied().collect::<Vec<_>>().as_slice() {
        [Sign::Signed] => Some("s".into()),
        [Sign::Unsigned] => Some("u".into()),
        [Sign::Signed, Sign::Unsigned] => Some("su".into()),
        _ => None,
    }
}

/// The result's element width, where every member writes the same one.
fn result_element_width(class: &SimilarityClass) -> Option<String> {
    same_in_every_member(class, |s| element_widths(s).1.first().map(|w| format!("to_i{w}")))
}

/// The operands' element width, where every member reads the same one.
fn operand_element_width(class: &SimilarityClass) -> Option<String> {
    same_in_every_member(class, |s| element_widths(s).0.first().map(|w| format!("of_i{w}")))
}

/// `word` of every member's concrete semantics, when they all give the same one.
fn same_in_every_member(
    class: &SimilarityClass,
    word: impl Fn(&crate::sema::ir::Semantics) -> Option<String>,
) -> Option<String> {
    let mut words = class.members.iter().map(|m| word(&member_semantics(class, m)));
    let first = words.next()??;
    words.all(|w| w.as_deref() == Some(first.as_str())).then_some(first)
}
