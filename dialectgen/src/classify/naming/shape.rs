//! Element widths and result shapes of concrete class members: whether
//! results widen or narrow what they read, hold one element, or fill the
//! high half of an operand.

use crate::sema::ir::{ArgKind, BinOp, Expr, Semantics, Stmt, StmtKind};
use std::collections::BTreeSet;

/// The innermost value under register-level wrappers (extension to a
/// register width, a slice).
pub(super) fn unwrap_register(e: &Expr) -> &Expr {
    match e {
        Expr::Call { func, args } if matches!(func.as_str(), "ZeroExtend" | "SignExtend") && !args.is_empty() => {
            unwrap_register(&args[0])
        }
        Expr::Slice { base, .. } => unwrap_register(base),
        _ => e,
    }
}

/// Locals that hold a whole argument (`v1 := ZeroExtend(a0, 128)[bit:0]`),
/// as front ends copy registers before reading their elements.
pub(super) fn register_copies(s: &Semantics) -> BTreeSet<String> {
    let mut copies = BTreeSet::new();
    for st in &s.body {
        if let StmtKind::Assign { place, value } = &st.kind {
            if place.range.is_none() {
                if let Expr::Var(v) = unwrap_register(value) {
                    if s.args.iter().any(|a| &a.name == v && a.kind == ArgKind::Vector) || copies.contains(v) {
                        copies.insert(place.var.clone());
                    }
                }
            }
        }
    }
    copies
}

/// Locals whose whole value becomes the result (`dst := v0[bit:0]`,
/// `v0 := ZeroExtend(v3, 128)`), found backwards from the result.
pub(super) fn result_copies(s: &Semantics) -> BTreeSet<String> {
    let mut copies = BTreeSet::from([s.result.name.clone()]);
    for st in s.body.iter().rev() {
        if let StmtKind::Assign { place, value } = &st.kind {
            if copies.contains(&place.var) {
                if let Expr::Var(v) = unwrap_register(value) {
                    copies.insert(v.clone());
                }
            }
        }
    }
    copies
}

/// Element widths of a concrete instance: those its vector arguments are
/// read in and those its result is written in.
pub(super) fn element_widths(s: &Semantics) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
    let width = |hi: &Expr, lo: &Expr| -> Option<u32> {
        let (h, l) = (index_value(hi)?, index_value(lo)?);
        u32::try_from(h - l + 1).ok().filter(|w| *w > 0)
    };
    let mut vectors: BTreeSet<String> =
        s.args.iter().filter(|a| a.kind == ArgKind::Vector).map(|a| a.name.clone()).collect();
    vectors.extend(register_copies(s));
    let results = result_copies(s);
    let mut body = s.body.clone();
    let mut on_expr = |e: &mut Expr| {
        if let Expr::Slice { base, hi, lo } = e {
            if matches!(&**base, Expr::Var(v) if vectors.contains(v.as_str())) {
                reads.extend(width(hi, lo));
            }
        }
    };
    crate::sema::visit::walk_stmts_mut(&mut body, &mut on_expr, &mut |_| {});
    fn dst_writes(
        body: &[Stmt],
        results: &BTreeSet<String>,
        out: &mut BTreeSet<u32>,
        width: &dyn Fn(&Expr, &Expr) -> Option<u32>,
    ) {
        for st in body {
            if let StmtKind::Assign { place, value } = &st.kind {
                if results.contains(&place.var) && !matches!(value, Expr::Int(_)) {
                    if let Some((hi, lo)) = &place.range {
                        out.extend(width(hi, lo));
                    }
                }
            }
            for b in crate::sema::visit::child_blocks(st) {
                dst_writes(b, results, out, width);
            }
        }
    }
    dst_writes(&s.body, &results, &mut writes, &width);
    (reads, writes)
}

/// An index expression's value with every variable at 0 (loop counters at
/// their first trip): enough to measure a slice whose bounds move together.
pub(super) fn index_value(e: &Expr) -> Option<i128> {
    match e {
        Expr::Int(n) => i128::try_from(n).ok(),
        Expr::Var(_) => Some(0),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (index_value(lhs)?, index_value(rhs)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Shapes a concrete instance's result has: one element only (`scalar`),
/// or its high half computed over a copy of an operand (`high`).
pub(super) fn result_shape(s: &Semantics) -> Option<&'static str> {
    let (_, writes) = element_widths(s);
    if writes.first().is_some_and(|w| *w == s.result.width) && s.result.width <= 64 && s.result.kind != ArgKind::Mask {
        return Some("scalar");
    }
    let results = result_copies(s);
    let mut copied_operand = false;
    let mut high_half = false;
    for st in &s.body {
        if let StmtKind::Assign { place, value } = &st.kind {
            if !results.contains(&place.var) {
                continue;
            }
            match &place.range {
                None => {
                    if let Expr::Var(v) = unwrap_register(value) {
                        if s.args.iter().any(|a| &a.name == v && a.kind == ArgKind::Vector) {
                            copied_operand = true;
                        }
                    }
                }
                Some((hi, lo)) => {
                    let half = i128::from(s.result.width / 2);
                    if index_value(lo) == Some(half) && index_value(hi) == Some(2 * half - 1) {
                        high_half = true;
                    }
                }
            }
        }
    }
    (copied_operand && high_half).then_some("high")
}

/// A shape every member's result has (see [`result_shape`]), given the
/// members' concrete semantics.
pub(super) fn shape_word(instances: &[Semantics]) -> Option<&'static str> {
    let mut shapes = instances.iter().map(result_shape);
    let first = shapes.next()??;
    shapes.all(|w| w == Some(first)).then_some(first)
}

/// How result elements compare with the elements read, the same in every
/// member (given their concrete semantics).
pub(super) fn resize_word(instances: &[Semantics]) -> Option<&'static str> {
    let mut words = instances.iter().map(|s| {
        let (reads, writes) = element_widths(s);
        match (reads.first(), writes.first()) {
            (Some(r), Some(w)) if w > r => Some("widen"),
            (Some(r), Some(w)) if w < r => Some("narrow"),
            _ => None,
        }
    });
    let first = words.next()??;
    words.all(|w| w == Some(first)).then_some(first)
}
