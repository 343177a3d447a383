//! Canonical form of instruction semantics, so that instructions written
//! differently by the vendor but computing alike look alike.
//!
//! - writes of `dst[RESULT_TOP:w]` beyond the result are dropped;
//! - integer locals defined once from loop counters and literals
//!   (`i := j*16`) are substituted into their uses;
//! - literal-only integer arithmetic is folded;
//! - source positions are dropped;
//! - runs of statements stepping through numbers are rerolled into loops;
//! - integer index arithmetic over loop counters is put in one normal
//!   form, `((v0 * c0) + (v1 * c1)) + c`;
//! - names become positional: arguments `a0, a1, …` in order of first use
//!   (so argument order does not matter), locals `v0, …`, helpers `f0, …`
//!   with parameters `p0, …`.
//!
//! Each transformation keeps the meaning; the classifier proves that for
//! every instruction by comparing formulas.

use crate::sema::ir::{BinOp, Expr, Semantics, Stmt, StmtKind};
use crate::sema::visit::{
    child_blocks_mut, clear_spans, own_exprs_mut, walk_expr_mut, walk_semantics_mut, walk_stmts_mut,
};
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::{HashMap, HashSet};

/// A canonical instruction and, per canonical argument, the index of the
/// instruction's own argument it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Canonical {
    pub sema: Semantics,
    pub arg_order: Vec<usize>,
}

/// How far canonical forms go in writing alike what computes alike up to
/// numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// An index expression names the loop counters it steps with
    /// (`(v0 * 16) + 15`).
    Narrow,
    /// An index names every enclosing loop counter, with coefficient 0
    /// where it does not step (`((v0 * 16) + (v1 * 0)) + 15`), and an
    /// operator between values is chosen by a number (`a + b` and `a - b`
    /// are one operation; see [`super::operators`]).
    Broad,
}

pub fn canonicalize(original: &Semantics, form: Form) -> Canonical {
    let mut s = original.clone();
    drop_writes_beyond_result(&mut s);
    // Index arithmetic in one form first, so that `2*i` and `2*i + 1` read
    // as one statement stepping through numbers.
    for f in &mut s.functions {
        normalize_index_arithmetic(&mut f.body, Form::Narrow);
    }
    normalize_index_arithmetic(&mut s.body, Form::Narrow);
    let mut next = 0;
    for f in &mut s.functions {
        super::reroll::reroll(&mut f.body, "rr", &mut next);
    }
    super::reroll::reroll(&mut s.body, "rr", &mut next);
    for f in &mut s.functions {
        inline_integer_locals(&mut f.body);
    }
    inline_integer_locals(&mut s.body);
    walk_semantics_mut(&mut s, &mut fold_literals, &mut |_| {});
    if form == Form::Broad {
        super::operators::choose_operators_by_number(&mut s);
        for f in &mut s.functions {
            crate::sema::order::order_commutative_operands(&mut f.body);
        }
        crate::sema::order::order_commutative_operands(&mut s.body);
    }
    let arg_order = rename(&mut s);
    for f in &mut s.functions {
        normalize_index_arithmetic(&mut f.body, form);
    }
    normalize_index_arithmetic(&mut s.body, form);
    for f in &mut s.functions {
        f.span = Default::default();
        clear_spans(&mut f.body);
    }
    clear_spans(&mut s.body);
    Canonical { sema: s, arg_order }
}

fn drop_writes_beyond_result(s: &mut Semantics) {
    let result = s.result.name.clone();
    let width = BigInt::from(s.result.width);
    s.body.retain(|st| match &st.kind {
        StmtKind::Assign { place, .. } if place.var == result => !matches!(
            &place.range,
            Some((Expr::Var(hi), Expr::Int(lo))) if hi == crate::sema::ir::RESULT_TOP && *lo >= width
        ),
        _ => true,
    });
}

fn fold_literals(e: &mut Expr) {
    let folded = match e {
        Expr::Binary { op, lhs, rhs } => match (lhs.as_ref(), rhs.as_ref()) {
            (Expr::Int(a), Expr::Int(b)) => match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul => Some(a * b),
                BinOp::Div if !b.is_zero() && (a % b).is_zero() => Some(a / b),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    if let Some(v) = folded {
        *e = Expr::Int(v);
    }
}

/// Names assigned anywhere in `body` (with how many assignments).
fn assignment_counts(body: &mut [Stmt]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    walk_stmts_mut(body, &mut |_| {}, &mut |n: &mut String| *counts.entry(n.clone()).or_insert(0) += 1);
    counts
}

/// Whether `e` is integer arithmetic over literals and the names in `ints`.
fn is_integer_expr(e: &Expr, ints: &HashSet<String>) -> bool {
    match e {
        Expr::Int(_) => true,
        Expr::Var(v) => ints.contains(v),
        Expr::Binary { op: BinOp::Add | BinOp::Sub | BinOp::Mul, lhs, rhs } => {
            is_integer_expr(lhs, ints) && is_integer_expr(rhs, ints)
        }
        Expr::Unary { arg, .. } => {
            is_integer_expr(arg, ints) && !matches!(e, Expr::Unary { op: crate::sema::ir::UnOp::LogicalNot, .. })
        }
        _ => false,
    }
}

fn inline_integer_locals(body: &mut Vec<Stmt>) {
    let counts = assignment_counts(body);
    let mut ints: HashSet<String> = HashSet::new();
    collect_loop_counters(body, &counts, &mut ints);
    inline_block(body, &counts, &mut ints, &HashMap::new());
}

/// Loop counters that the body does not assign.
fn collect_loop_counters(body: &[Stmt], counts: &HashMap<String, usize>, ints: &mut HashSet<String>) {
    for s in body {
        match &s.kind {
            StmtKind::For { var, body, .. } => {
                if counts.get(var) == Some(&1) {
                    ints.insert(var.clone());
                }
                collect_loop_counters(body, counts, ints);
            }
            StmtKind::While { body, .. } => collect_loop_counters(body, counts, ints),
            StmtKind::If { then, otherwise, .. } => {
                collect_loop_counters(then, counts, ints);
                collect_loop_counters(otherwise, counts, ints);
            }
            StmtKind::Case { arms, .. } => arms.iter().for_each(|a| collect_loop_counters(&a.body, counts, ints)),
            _ => {}
        }
    }
}

fn substitute(e: &mut Expr, subst: &HashMap<String, Expr>) {
    walk_expr_mut(e, &mut |x: &mut Expr| {
        if let Expr::Var(v) = x {
            if let Some(r) = subst.get(v) {
                *x = r.clone();
            }
        }
    });
}

fn inline_block(
    body: &mut Vec<Stmt>,
    counts: &HashMap<String, usize>,
    ints: &mut HashSet<String>,
    outer: &HashMap<String, Expr>,
) {
    let mut subst = outer.clone();
    let mut out = Vec::with_capacity(body.len());
    for mut s in std::mem::take(body) {
        // Nested blocks get the map (and their own additions) below.
        if !subst.is_empty() {
            own_exprs_mut(&mut s, &mut |e: &mut Expr| substitute(e, &subst), &mut |_| {});
        }
        if let StmtKind::Assign { place, value } = &s.kind {
            if place.range.is_none() && counts.get(&place.var) == Some(&1) && is_integer_expr(value, ints) {
                ints.insert(place.var.clone());
                subst.insert(place.var.clone(), value.clone());
                continue;
            }
        }
        for block in child_blocks_mut(&mut s) {
            inline_block(block, counts, ints, &subst);
        }
        out.push(s);
    }
    *body = out;
}

/// Rewrites every integer expression over loop counters and literals into
/// `((x * a) + (y * b)) + c`, terms ordered by name, so that `i+7` with
/// `i := j*8`, `j*8+7` and `7+8*j` agree. With [`Form::Broad`], every
/// enclosing loop counter is named, with coefficient 0 where the index does
/// not step with it (`(v0 * 16) + (v1 * 0)`), so that an index that does
/// not move with an inner loop and one that does differ only in a number.
fn normalize_index_arithmetic(body: &mut [Stmt], form: Form) {
    let counts = assignment_counts(body);
    let mut ints = HashSet::new();
    collect_loop_counters(body, &counts, &mut ints);
    normalize_block(body, &ints, form, &mut Vec::new());
}

/// `scope`: the enclosing loop counters (tracked for [`Form::Broad`] only).
fn normalize_block(body: &mut [Stmt], ints: &HashSet<String>, form: Form, scope: &mut Vec<String>) {
    for s in body.iter_mut() {
        own_exprs_mut(s, &mut |e: &mut Expr| normalize_top(e, ints, scope), &mut |_| {});
        let counter = match &s.kind {
            StmtKind::For { var, .. } if form == Form::Broad && ints.contains(var) => Some(var.clone()),
            _ => None,
        };
        if let Some(v) = &counter {
            scope.push(v.clone());
        }
        for block in child_blocks_mut(s) {
            normalize_block(block, ints, form, scope);
        }
        if counter.is_some() {
            scope.pop();
        }
    }
}

fn normalize_top(e: &mut Expr, ints: &HashSet<String>, scope: &[String]) {
    let bare_counter = matches!(e, Expr::Var(v) if !scope.is_empty() && ints.contains(v));
    if matches!(e, Expr::Int(_)) || (matches!(e, Expr::Var(_)) && !bare_counter) || !is_integer_expr(e, ints) {
        return;
    }
    let Some(mut form) = linear_form(e) else { return };
    for v in scope {
        form.0.entry(v.clone()).or_insert_with(BigInt::zero);
    }
    let mut acc: Option<Expr> = None;
    for (var, coeff) in &form.0 {
        let term = Expr::binary(BinOp::Mul, Expr::Var(var.clone()), Expr::Int(coeff.clone()));
        acc = Some(match acc {
            None => term,
            Some(a) => Expr::binary(BinOp::Add, a, term),
        });
    }
    *e = match acc {
        None => Expr::Int(form.1),
        Some(a) => Expr::binary(BinOp::Add, a, Expr::Int(form.1)),
    };
}

/// Coefficients per variable (sorted) and the constant, when `e` is linear.
pub(crate) fn linear_form(e: &Expr) -> Option<(std::collections::BTreeMap<String, BigInt>, BigInt)> {
    use std::collections::BTreeMap;
    Some(match e {
        Expr::Int(c) => (BTreeMap::new(), c.clone()),
        Expr::Var(v) => (BTreeMap::from([(v.clone(), BigInt::from(1))]), BigInt::zero()),
        Expr::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs } => {
            let (mut a, ca) = linear_form(lhs)?;
            let (b, cb) = linear_form(rhs)?;
            let sign = if *op == BinOp::Add { BigInt::from(1) } else { BigInt::from(-1) };
            for (k, v) in b {
                *a.entry(k).or_insert_with(BigInt::zero) += &sign * v;
            }
            a.retain(|_, v| !v.is_zero());
            (a, ca + sign * cb)
        }
        Expr::Binary { op: BinOp::Mul, lhs, rhs } => {
            let (a, ca) = linear_form(lhs)?;
            let (b, cb) = linear_form(rhs)?;
            let scale = |m: BTreeMap<String, BigInt>, k: &BigInt| {
                m.into_iter().map(|(v, c)| (v, c * k)).filter(|(_, c)| !c.is_zero()).collect()
            };
            match (a.is_empty(), b.is_empty()) {
                (true, _) => (scale(b, &ca), ca * cb),
                (_, true) => (scale(a, &cb), ca * cb),
                _ => return None,
            }
        }
        Expr::Unary { op: crate::sema::ir::UnOp::Neg, arg } => {
            let (a, c) = linear_form(arg)?;
            (a.into_iter().map(|(v, k)| (v, -k)).collect(), -c)
        }
        _ => return None,
    })
}

/// Positional names; returns the argument order.
fn rename(s: &mut Semantics) -> Vec<usize> {
    let arg_names: Vec<String> = s.args.iter().map(|a| a.name.clone()).collect();
    // Arguments in order of first use in the body (helpers' bodies count
    // where they are called, approximated by the main body order).
    let mut first_use: Vec<usize> = Vec::new();
    walk_semantics_mut(
        s,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if let Some(i) = arg_names.iter().position(|a| a == v) {
                    if !first_use.contains(&i) {
                        first_use.push(i);
                    }
                }
            }
        },
        &mut |_| {},
    );
    // Post-order walks visit operands before the expressions using them, so
    // the order is "first operand first"; unused arguments go last.
    for i in 0..arg_names.len() {
        if !first_use.contains(&i) {
            first_use.push(i);
        }
    }
    let mut globals: HashMap<String, String> = HashMap::new();
    for (k, &i) in first_use.iter().enumerate() {
        globals.insert(arg_names[i].clone(), format!("a{k}"));
    }
    globals.insert(s.result.name.clone(), "dst".into());
    let fn_names: HashMap<String, String> =
        s.functions.iter().enumerate().map(|(k, f)| (f.name.clone(), format!("f{k}"))).collect();
    for f in &mut s.functions {
        let mut r = Renamer { names: globals.clone(), prefix: 'l', next: 0 };
        for (k, p) in f.params.iter_mut().enumerate() {
            r.names.insert(p.clone(), format!("p{k}"));
        }
        f.params = (0..f.params.len()).map(|k| format!("p{k}")).collect();
        rename_body(&mut f.body, r, &fn_names);
        f.name = fn_names[&f.name].clone();
    }
    let r = rename_body(&mut s.body, Renamer { names: globals, prefix: 'v', next: 0 }, &fn_names);
    let mut args = Vec::with_capacity(s.args.len());
    for &i in &first_use {
        let mut a = s.args[i].clone();
        a.name = r.names[&a.name].clone();
        args.push(a);
    }
    s.args = args;
    s.result.name = "dst".into();
    first_use
}

/// Maps names to positional ones, allocating `v0, v1, …` on first sight.
struct Renamer {
    names: HashMap<String, String>,
    prefix: char,
    next: usize,
}

impl Renamer {
    fn rename(&mut self, n: &mut String) {
        if crate::sema::ir::is_reserved(n) {
            return;
        }
        let new = match self.names.get(n.as_str()) {
            Some(x) => x.clone(),
            None => {
                let x = format!("{}{}", self.prefix, self.next);
                self.next += 1;
                self.names.insert(n.clone(), x.clone());
                x
            }
        };
        *n = new;
    }
}

fn rename_body(body: &mut [Stmt], r: Renamer, fn_names: &HashMap<String, String>) -> Renamer {
    let cell = std::cell::RefCell::new(r);
    walk_stmts_mut(
        body,
        &mut |e: &mut Expr| match e {
            Expr::Var(v) => cell.borrow_mut().rename(v),
            Expr::Call { func, .. } => {
                if let Some(n) = fn_names.get(func.as_str()) {
                    *func = n.clone();
                }
            }
            _ => {}
        },
        &mut |n: &mut String| cell.borrow_mut().rename(n),
    );
    cell.into_inner()
}
