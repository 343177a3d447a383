//! Questions about expressions and statements that naming asks: what a
//! value reads (arguments, loop counters, indices), literals, stated signs
//! and comparison words.

use super::features::Sign;
use super::shape::unwrap_register;
use crate::sema::ir::{ArgKind, BinOp, Expr, Semantics, Stmt, StmtKind};
use crate::sema::visit::{any_expr, walk_expr};
use std::collections::BTreeSet;

/// `x := x + …product…`: a product summed into a running total (a loop's
/// reduction counts as several products in one element).
pub(super) fn accumulates_product(var: &str, value: &Expr) -> bool {
    let Expr::Binary { op: BinOp::Add, lhs, rhs } = value else { return false };
    let total = |e: &Expr| matches!(unwrap_register(e), Expr::Var(v) if v == var);
    let has_mul = |e: &Expr| any_expr(e, |x| matches!(x, Expr::Binary { op: BinOp::Mul, .. }));
    (total(lhs) && has_mul(rhs)) || (total(rhs) && has_mul(lhs))
}

pub(super) fn literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(n) => i64::try_from(n).ok(),
        _ => None,
    }
}

/// The signedness a cast or a signedness flag states outright.
pub(super) fn stated_sign(func: &str, args: &[Expr]) -> Option<Sign> {
    match func {
        "Signed" => Some(Sign::Signed),
        "Unsigned" => Some(Sign::Unsigned),
        "AsInteger" => flag_sign(args.get(1)),
        "WrapAs" | "SaturateAs" | "NarrowAs" => flag_sign(args.get(2)),
        _ => None,
    }
}

pub(super) fn flag_sign(e: Option<&Expr>) -> Option<Sign> {
    match e? {
        Expr::Int(n) => Some(if n == &num_bigint::BigInt::from(0) { Sign::Signed } else { Sign::Unsigned }),
        _ => Some(Sign::ByParameter),
    }
}

pub(super) fn predicate_word(op: BinOp) -> &'static str {
    match op {
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
        _ => "",
    }
}

/// The variable an element read comes from (`a0[..]`, `SignExtend(a0[..])`).
pub(super) fn element_of(e: &Expr) -> Option<&str> {
    match e {
        Expr::Slice { base, .. } => match &**base {
            Expr::Var(v) => Some(v),
            _ => None,
        },
        Expr::Call { func, args } if matches!(func.as_str(), "SignExtend" | "ZeroExtend" | "Signed" | "Unsigned") => {
            args.first().and_then(element_of)
        }
        Expr::Call { func, args } if func == "AsInteger" => args.first().and_then(element_of),
        _ => None,
    }
}

/// Whether `e` mentions an argument (an immediate's bits, a vector's).
pub(super) fn mentions_argument(e: &Expr, sema: &Semantics) -> bool {
    any_expr(e, |x| {
        matches!(x, Expr::Var(v)
            if sema.functions.iter().any(|f| f.params.contains(v)) || sema.args.iter().any(|a| &a.name == v))
    })
}

/// Whether the result depends on any argument at all.
pub(super) fn reads_any_argument(s: &Semantics) -> bool {
    let mut body = s.body.clone();
    let mut found = false;
    crate::sema::visit::walk_stmts_mut(
        &mut body,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if s.args.iter().any(|a| &a.name == v) {
                    found = true;
                }
            }
        },
        &mut |_| {},
    );
    found
}

/// Whether `e` mentions one of `vars`.
pub(super) fn mentions_any(e: &Expr, vars: &BTreeSet<String>) -> bool {
    any_expr(e, |x| matches!(x, Expr::Var(v) if vars.contains(v)))
}

/// Loop counters, and locals assigned from expressions that mention them
/// (`v1 := v0 * 8`), in statement order.
pub(super) fn loop_vars(s: &Semantics) -> BTreeSet<String> {
    fn walk(body: &[Stmt], vars: &mut BTreeSet<String>) {
        for st in body {
            match &st.kind {
                StmtKind::For { var, .. } => {
                    vars.insert(var.clone());
                }
                StmtKind::Assign { place, value } if place.range.is_none() && mentions_any(value, vars) => {
                    vars.insert(place.var.clone());
                }
                _ => {}
            }
            for b in crate::sema::visit::child_blocks(st) {
                walk(b, vars);
            }
        }
    }
    let mut vars = BTreeSet::new();
    for f in &s.functions {
        walk(&f.body, &mut vars);
    }
    walk(&s.body, &mut vars);
    vars
}

/// Variables used inside bit positions, loop bounds and `CASE` scrutinees.
pub(super) fn index_vars(s: &Semantics) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    let mut add = |e: &Expr| {
        walk_expr(e, &mut |x| {
            if let Expr::Var(v) = x {
                vars.insert(v.clone());
            }
        });
    };
    fn in_expr(e: &Expr, add: &mut impl FnMut(&Expr)) {
        match e {
            Expr::Slice { base, hi, lo } => {
                add(hi);
                add(lo);
                in_expr(base, add);
            }
            Expr::Bit { base, index } => {
                add(index);
                in_expr(base, add);
            }
            Expr::Unary { arg, .. } => in_expr(arg, add),
            Expr::Binary { lhs, rhs, .. } | Expr::CompareBy { lhs, rhs, .. } | Expr::OperateBy { lhs, rhs, .. } => {
                in_expr(lhs, add);
                in_expr(rhs, add);
            }
            Expr::Select { cond, then, otherwise } => {
                in_expr(cond, add);
                in_expr(then, add);
                in_expr(otherwise, add);
            }
            Expr::Call { args, .. } => args.iter().for_each(|a| in_expr(a, add)),
            Expr::Int(_) | Expr::Var(_) => {}
        }
    }
    fn in_stmts(body: &[Stmt], add: &mut impl FnMut(&Expr)) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { place, value } => {
                    if let Some((hi, lo)) = &place.range {
                        add(hi);
                        add(lo);
                    }
                    in_expr(value, add);
                }
                StmtKind::For { from, to, body, .. } => {
                    add(from);
                    add(to);
                    in_stmts(body, add);
                }
                StmtKind::While { cond, body } => {
                    in_expr(cond, add);
                    in_stmts(body, add);
                }
                StmtKind::If { cond, then, otherwise } => {
                    in_expr(cond, add);
                    in_stmts(then, add);
                    in_stmts(otherwise, add);
                }
                StmtKind::Case { scrutinee, arms } => {
                    add(scrutinee);
                    arms.iter().for_each(|a| in_stmts(&a.body, add));
                }
                StmtKind::Return { value } => in_expr(value, add),
                StmtKind::Call { args, .. } => args.iter().for_each(|a| in_expr(a, add)),
            }
        }
    }
    for f in &s.functions {
        in_stmts(&f.body, &mut add);
    }
    in_stmts(&s.body, &mut add);
    // Arguments are data even where they also give a position.
    for a in &s.args {
        if a.kind != ArgKind::Immediate {
            vars.remove(&a.name);
        }
    }
    vars
}

/// Whether one element of an operand, read before any loop, is an operand
/// of the arithmetic inside a loop (`vmul_n`'s scalar, a lane an immediate
/// picks): a local assigned once, outside loops, from an element of a
/// vector argument or of a copy of one (extended or converted, as
/// [`element_of`] reads it), and then multiplied, added or
/// subtracted in a loop's body.
pub(super) fn arithmetic_by_one_element(s: &Semantics) -> bool {
    let mut vectors: BTreeSet<String> =
        s.args.iter().filter(|a| a.kind == ArgKind::Vector).map(|a| a.name.clone()).collect();
    vectors.extend(super::shape::register_copies(s));
    let mut assigned: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    crate::sema::visit::walk_stmts_mut(&mut s.body.clone(), &mut |_| {}, &mut |name| {
        *assigned.entry(name.clone()).or_default() += 1;
    });
    let elements: BTreeSet<&str> = s
        .body
        .iter()
        .filter_map(|st| match &st.kind {
            StmtKind::Assign { place, value }
                if place.range.is_none() && matches!(value, Expr::Slice { .. } | Expr::Call { .. }) =>
            {
                let from_vector = element_of(value).is_some_and(|v| vectors.contains(v));
                (from_vector && assigned.get(&place.var) == Some(&1)).then_some(place.var.as_str())
            }
            _ => None,
        })
        .collect();
    if elements.is_empty() {
        return false;
    }
    let is_element = |e: &Expr| matches!(operand_variable(e), Some(v) if elements.contains(v));
    s.body.iter().any(|st| match &st.kind {
        StmtKind::For { body, .. } => {
            let mut found = false;
            crate::sema::visit::walk_stmts_mut(
                &mut body.clone(),
                &mut |e| {
                    found |= match e {
                        Expr::Binary { op: BinOp::Mul | BinOp::Add | BinOp::Sub, lhs, rhs }
                        | Expr::OperateBy { lhs, rhs, .. } => is_element(lhs) || is_element(rhs),
                        _ => false,
                    }
                },
                &mut |_| {},
            );
            found
        }
        _ => false,
    })
}

/// The variable an arithmetic operand reads, under extensions and
/// conversions (`element2`, `SignExtend(element2, 32)`).
fn operand_variable(e: &Expr) -> Option<&str> {
    match e {
        Expr::Var(v) => Some(v),
        Expr::Call { func, args }
            if matches!(func.as_str(), "SignExtend" | "ZeroExtend" | "Signed" | "Unsigned" | "AsInteger") =>
        {
            args.first().and_then(operand_variable)
        }
        _ => None,
    }
}
