//! Terms the vendor leaves out because they are neutral.
//!
//! A rounding form adds a constant the plain form leaves out
//! (`(a + b + 1) >> 1` and `(a + b) >> 1`), a doubling product shifts where
//! the plain one does not: the same operation, with the number 0 written
//! nowhere. Here an instruction may be written with such a neutral term
//! (`x + 0`, `x << 0`) at one place when that makes its template another
//! instruction's; merging then gives the new hole its value, and Z3 proves
//! the form equal to the instruction as everywhere else.

use crate::sema::ir::{BinOp, Expr, Semantics, Stmt, StmtKind};
use crate::sema::visit::child_blocks_mut;

/// The neutral terms tried, in order: the operation, its neutral number
/// and whether the number is the left operand (a sum's operands may come
/// in either order).
const NEUTRAL: [(BinOp, i64, bool); 3] = [(BinOp::Add, 0, true), (BinOp::Add, 0, false), (BinOp::Shl, 0, false)];

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

/// `sema` with the neutral term of `place` put at its position.
pub fn with_neutral_term(sema: &Semantics, place: Place) -> Option<Semantics> {
    let mut s = sema.clone();
    let mut next = 0;
    let mut done = false;
    visit_values(&mut s.body, &mut |e: &mut Expr| {
        if next == place.at && !done {
            let (op, k, first) = NEUTRAL[place.term];
            let inner = std::mem::replace(e, Expr::int(0));
            *e = if first { Expr::binary(op, Expr::int(k), inner) } else { Expr::binary(op, inner, Expr::int(k)) };
            done = true;
        }
        next += 1;
    });
    done.then_some(s)
}

fn count_positions(sema: &Semantics) -> usize {
    let mut s = sema.clone();
    let mut n = 0;
    visit_values(&mut s.body, &mut |_| n += 1);
    n
}

/// Calls `f` on every value expression of the assignments in `body`
/// (pre-order), leaving out literals, names and the bit positions of
/// slices and places.
fn visit_values(body: &mut [Stmt], f: &mut impl FnMut(&mut Expr)) {
    for s in body.iter_mut() {
        if let StmtKind::Assign { value, .. } = &mut s.kind {
            visit_expr(value, f);
        }
        for block in child_blocks_mut(s) {
            visit_values(block, f);
        }
    }
}

fn visit_expr(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    if matches!(e, Expr::Int(_) | Expr::Var(_)) {
        return;
    }
    f(e);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::x86::pseudocode::parse_operation;
    use crate::sema::print::semantics_to_string;

    fn sema(src: &str) -> Semantics {
        let mut s = crate::sema::ir::Semantics {
            name: "t".into(),
            args: vec![],
            result: crate::sema::ir::Arg {
                name: "dst".into(),
                kind: crate::sema::ir::ArgKind::Vector,
                width: 8,
                elem: crate::sema::ir::ElemType { width: 8, signed: false },
                imm_bits: None,
                imm_range: None,
            },
            functions: vec![],
            body: vec![],
        };
        s.body = parse_operation(src).unwrap().body;
        s
    }

    #[test]
    fn a_rounding_constant_left_out_is_found_as_a_place() {
        let plain = sema("dst[7:0] := (a + b) >> 1\n");
        let rounding = sema("dst[7:0] := ((a + b) + 1) >> 1\n");
        let shape = |s: &Semantics| crate::classify::template::parameterize(s).key;
        let found = neutral_variants(&plain).into_iter().any(|(_, v)| shape(&v) == shape(&rounding));
        assert!(found);
        // Literals, names and bit positions get no term.
        for (_, v) in neutral_variants(&plain) {
            let text = semantics_to_string(&v);
            assert!(!text.contains("[(7 + 0)"), "{text}");
        }
    }
}
