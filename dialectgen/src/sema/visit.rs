//! Traversals of the semantics IR that rewrite it in place.

use super::ir::{Expr, Function, Semantics, Stmt, StmtKind};

/// Calls `f` on every expression, children before parents.
pub fn walk_expr_mut(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Slice { base, hi, lo } => {
            walk_expr_mut(base, f);
            walk_expr_mut(hi, f);
            walk_expr_mut(lo, f);
        }
        Expr::Bit { base, index } => {
            walk_expr_mut(base, f);
            walk_expr_mut(index, f);
        }
        Expr::Unary { arg, .. } => walk_expr_mut(arg, f),
        Expr::Binary { lhs, rhs, .. } => {
            walk_expr_mut(lhs, f);
            walk_expr_mut(rhs, f);
        }
        Expr::CompareBy { predicate, lhs, rhs } => {
            walk_expr_mut(predicate, f);
            walk_expr_mut(lhs, f);
            walk_expr_mut(rhs, f);
        }
        Expr::Select { cond, then, otherwise } => {
            walk_expr_mut(cond, f);
            walk_expr_mut(then, f);
            walk_expr_mut(otherwise, f);
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|a| walk_expr_mut(a, f)),
    }
    f(e);
}

/// Calls `on_expr` on every expression and `on_name` on every variable name
/// that a statement binds or writes (assignment targets, loop counters).
pub fn walk_stmts_mut(body: &mut [Stmt], on_expr: &mut impl FnMut(&mut Expr), on_name: &mut impl FnMut(&mut String)) {
    for s in body {
        match &mut s.kind {
            StmtKind::Assign { place, value } => {
                on_name(&mut place.var);
                if let Some((hi, lo)) = &mut place.range {
                    walk_expr_mut(hi, on_expr);
                    walk_expr_mut(lo, on_expr);
                }
                walk_expr_mut(value, on_expr);
            }
            StmtKind::For { var, from, to, body, .. } => {
                on_name(var);
                walk_expr_mut(from, on_expr);
                walk_expr_mut(to, on_expr);
                walk_stmts_mut(body, on_expr, on_name);
            }
            StmtKind::While { cond, body } => {
                walk_expr_mut(cond, on_expr);
                walk_stmts_mut(body, on_expr, on_name);
            }
            StmtKind::If { cond, then, otherwise } => {
                walk_expr_mut(cond, on_expr);
                walk_stmts_mut(then, on_expr, on_name);
                walk_stmts_mut(otherwise, on_expr, on_name);
            }
            StmtKind::Case { scrutinee, arms } => {
                walk_expr_mut(scrutinee, on_expr);
                for arm in arms {
                    walk_stmts_mut(&mut arm.body, on_expr, on_name);
                }
            }
            StmtKind::Return { value } => walk_expr_mut(value, on_expr),
            StmtKind::Call { args, .. } => args.iter_mut().for_each(|a| walk_expr_mut(a, on_expr)),
        }
    }
}

/// Every expression and bound name of an instruction, helpers included.
pub fn walk_semantics_mut(
    s: &mut Semantics,
    on_expr: &mut impl FnMut(&mut Expr),
    on_name: &mut impl FnMut(&mut String),
) {
    for Function { body, params, .. } in &mut s.functions {
        params.iter_mut().for_each(&mut *on_name);
        walk_stmts_mut(body, on_expr, on_name);
    }
    walk_stmts_mut(&mut s.body, on_expr, on_name);
}

/// Forgets source positions (for comparing programs by structure).
pub fn clear_spans(body: &mut [Stmt]) {
    for s in body {
        s.span = Default::default();
        match &mut s.kind {
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => clear_spans(body),
            StmtKind::If { then, otherwise, .. } => {
                clear_spans(then);
                clear_spans(otherwise);
            }
            StmtKind::Case { arms, .. } => arms.iter_mut().for_each(|a| clear_spans(&mut a.body)),
            _ => {}
        }
    }
}
