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
        Expr::CompareBy { predicate: code, lhs, rhs } | Expr::OperateBy { code, lhs, rhs, .. } => {
            walk_expr_mut(code, f);
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

/// Calls `f` on every expression, children before parents, without changing it.
pub fn walk_expr(e: &Expr, f: &mut impl FnMut(&Expr)) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Slice { base, hi, lo } => {
            walk_expr(base, f);
            walk_expr(hi, f);
            walk_expr(lo, f);
        }
        Expr::Bit { base, index } => {
            walk_expr(base, f);
            walk_expr(index, f);
        }
        Expr::Unary { arg, .. } => walk_expr(arg, f),
        Expr::Binary { lhs, rhs, .. } => {
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        Expr::CompareBy { predicate: code, lhs, rhs } | Expr::OperateBy { code, lhs, rhs, .. } => {
            walk_expr(code, f);
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        Expr::Select { cond, then, otherwise } => {
            walk_expr(cond, f);
            walk_expr(then, f);
            walk_expr(otherwise, f);
        }
        Expr::Call { args, .. } => args.iter().for_each(|a| walk_expr(a, f)),
    }
    f(e);
}

/// Whether `pred` holds for `e` or any expression inside it.
pub fn any_expr(e: &Expr, mut pred: impl FnMut(&Expr) -> bool) -> bool {
    let mut found = false;
    walk_expr(e, &mut |x| found = found || pred(x));
    found
}

/// The statement's own expressions and bound names, not those of the
/// blocks nested in it.
pub fn own_exprs_mut(s: &mut Stmt, on_expr: &mut impl FnMut(&mut Expr), on_name: &mut impl FnMut(&mut String)) {
    match &mut s.kind {
        StmtKind::Assign { place, value } => {
            on_name(&mut place.var);
            if let Some((hi, lo)) = &mut place.range {
                walk_expr_mut(hi, on_expr);
                walk_expr_mut(lo, on_expr);
            }
            walk_expr_mut(value, on_expr);
        }
        StmtKind::For { var, from, to, .. } => {
            on_name(var);
            walk_expr_mut(from, on_expr);
            walk_expr_mut(to, on_expr);
        }
        StmtKind::While { cond, .. } | StmtKind::If { cond, .. } => walk_expr_mut(cond, on_expr),
        StmtKind::Case { scrutinee, .. } => walk_expr_mut(scrutinee, on_expr),
        StmtKind::Return { value } => walk_expr_mut(value, on_expr),
        StmtKind::Call { args, .. } => args.iter_mut().for_each(|a| walk_expr_mut(a, on_expr)),
    }
}

/// The blocks nested directly in a statement (loop bodies, branches, arms).
pub fn child_blocks(s: &Stmt) -> Vec<&Vec<Stmt>> {
    match &s.kind {
        StmtKind::For { body, .. } | StmtKind::While { body, .. } => vec![body],
        StmtKind::If { then, otherwise, .. } => vec![then, otherwise],
        StmtKind::Case { arms, .. } => arms.iter().map(|a| &a.body).collect(),
        StmtKind::Assign { .. } | StmtKind::Return { .. } | StmtKind::Call { .. } => Vec::new(),
    }
}

/// [`child_blocks`], mutable.
pub fn child_blocks_mut(s: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    match &mut s.kind {
        StmtKind::For { body, .. } | StmtKind::While { body, .. } => vec![body],
        StmtKind::If { then, otherwise, .. } => vec![then, otherwise],
        StmtKind::Case { arms, .. } => arms.iter_mut().map(|a| &mut a.body).collect(),
        StmtKind::Assign { .. } | StmtKind::Return { .. } | StmtKind::Call { .. } => Vec::new(),
    }
}

/// Calls `on_expr` on every expression and `on_name` on every variable name
/// that a statement binds or writes (assignment targets, loop counters).
pub fn walk_stmts_mut(body: &mut [Stmt], on_expr: &mut impl FnMut(&mut Expr), on_name: &mut impl FnMut(&mut String)) {
    for s in body {
        own_exprs_mut(s, on_expr, on_name);
        for block in child_blocks_mut(s) {
            walk_stmts_mut(block, on_expr, on_name);
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
        for block in child_blocks_mut(s) {
            clear_spans(block);
        }
    }
}
