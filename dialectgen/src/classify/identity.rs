//! Terms the vendor leaves out because they are neutral.
//!
//! A rounding form adds a constant the plain form leaves out
//! (`(a + b + 1) >> 1` and `(a + b) >> 1`), a doubling product shifts where
//! the plain one does not: the same operation, with the number 0 written
//! nowhere; a wrapping narrowing where the value is narrowed anyway (a lane
//! store) changes nothing, where the saturating form narrows. Here an
//! instruction may be written with such a neutral term (`x + 0`, `x << 0`,
//! `x` wrapped to 8, 16, 32 or 64 bits) around one value, wherever that
//! value occurs, when that makes its template another instruction's
//! (`a - b` computed as `a + NOT b` for a difference and its carry reads as
//! the sum with `0 + b` twice); merging then gives the new holes their
//! values, and Z3 proves the form equal to the instruction as everywhere
//! else (a wrap that changes the result is no neutral term, and fails that
//! proof).

use super::operators::NARROW;
use crate::sema::ir::{operator_code, BinOp, Expr, Semantics, Stmt, StmtKind};
use crate::sema::visit::child_blocks_mut;

/// A neutral term put around a value `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Neutral {
    /// `x op k` (`k op x` when `first`; a sum's operands may come in
    /// either order).
    Binary { op: BinOp, k: i64, first: bool },
    /// `x` wrapped to `width` signed bits, written as the broad canonical
    /// form writes narrowings (`NarrowAs(x, width, 0, 0)`).
    Wrap { width: i64 },
}

/// The neutral terms tried, in order. The wraps differ only in a number:
/// where one gives a template, each instruction takes the first that is
/// neutral for it.
const NEUTRAL: [Neutral; 7] = [
    Neutral::Binary { op: BinOp::Add, k: 0, first: true },
    Neutral::Binary { op: BinOp::Add, k: 0, first: false },
    Neutral::Binary { op: BinOp::Shl, k: 0, first: false },
    Neutral::Wrap { width: 8 },
    Neutral::Wrap { width: 16 },
    Neutral::Wrap { width: 32 },
    Neutral::Wrap { width: 64 },
];

impl Neutral {
    fn around(self, x: Expr) -> Expr {
        match self {
            Neutral::Binary { op, k, first } => {
                let (lhs, rhs) = if first { (Expr::int(k), x) } else { (x, Expr::int(k)) };
                match operator_code(op) {
                    Some((family, code)) => Expr::OperateBy {
                        family,
                        code: Box::new(Expr::int(code)),
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    None => Expr::binary(op, lhs, rhs),
                }
            }
            Neutral::Wrap { width } => {
                Expr::Call { func: NARROW.into(), args: vec![x, Expr::int(width), Expr::int(0), Expr::int(0)] }
            }
        }
    }
}

/// Every form of `sema` with one neutral term put around one value
/// expression (not a literal, a name, or a bit position), each with the
/// place it was put (for [`with_neutral_term`] on the instruction's
/// template siblings).
pub fn neutral_variants(sema: &Semantics) -> Vec<(Place, Semantics)> {
    let mut out = Vec::new();
    let positions = count_positions(sema);
    for (term, _) in NEUTRAL.iter().enumerate() {
        for at in 0..positions {
            let place = Place { term, at };
            if let Some(v) = with_neutral_term(sema, place) {
                out.push((place, v));
            }
        }
    }
    out
}

/// Where a neutral term goes: which one and around which value expression
/// (in the order [`with_neutral_term`] visits them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    term: usize,
    at: usize,
}

/// `sema` with the neutral term of `place` put around the value at its
/// position, and around every other occurrence of that value (a value the
/// vendor computes twice, for a result and for its carry, is one value).
pub fn with_neutral_term(sema: &Semantics, place: Place) -> Option<Semantics> {
    let mut s = sema.clone();
    let mut next = 0;
    let mut target = None;
    visit_values(&mut s.body, &mut |e: &mut Expr| {
        if next == place.at {
            target = Some(e.clone());
        }
        next += 1;
        true
    });
    let target = target?;
    visit_values(&mut s.body, &mut |e: &mut Expr| {
        if *e != target {
            return true;
        }
        let inner = std::mem::replace(e, Expr::int(0));
        *e = NEUTRAL[place.term].around(inner);
        false
    });
    Some(s)
}

fn count_positions(sema: &Semantics) -> usize {
    let mut s = sema.clone();
    let mut n = 0;
    visit_values(&mut s.body, &mut |_| {
        n += 1;
        true
    });
    n
}

/// Calls `f` on every value expression of the assignments in `body`
/// (pre-order), leaving out literals, names and the bit positions of
/// slices and places; `f` says whether to go on into the expression.
fn visit_values(body: &mut [Stmt], f: &mut impl FnMut(&mut Expr) -> bool) {
    for s in body.iter_mut() {
        if let StmtKind::Assign { value, .. } = &mut s.kind {
            visit_expr(value, f);
        }
        for block in child_blocks_mut(s) {
            visit_values(block, f);
        }
    }
}

fn visit_expr(e: &mut Expr, f: &mut impl FnMut(&mut Expr) -> bool) {
    if matches!(e, Expr::Int(_) | Expr::Var(_)) || !f(e) {
        return;
    }
    match e {
        Expr::Int(_) | Expr::Var(_) | Expr::Slice { .. } => {}
        Expr::Bit { base, .. } => visit_expr(base, f),
        Expr::Unary { arg, .. } => visit_expr(arg, f),
        Expr::Binary { lhs, rhs, .. } => {
            visit_expr(lhs, f);
            visit_expr(rhs, f);
        }
        Expr::CompareBy { lhs, rhs, .. } | Expr::OperateBy { lhs, rhs, .. } => {
            visit_expr(lhs, f);
            visit_expr(rhs, f);
        }
        Expr::Select { cond, then, otherwise } => {
            visit_expr(cond, f);
            visit_expr(then, f);
            visit_expr(otherwise, f);
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|a| visit_expr(a, f)),
    }
}
