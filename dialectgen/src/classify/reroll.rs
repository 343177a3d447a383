//! Loop rerolling: runs of statements that differ only in numbers that
//! step evenly become one counted loop, so an unrolled 512-bit instruction
//! and its looped 128-bit sibling look alike.

use crate::sema::ir::{BinOp, Expr, Stmt, StmtKind};
use crate::sema::visit::{clear_spans, walk_stmts_mut};
use num_bigint::BigInt;

/// Rerolls `body` and every nested block. Loop counters are named
/// `{prefix}0`, `{prefix}1`, … (the caller picks a prefix no program uses).
pub fn reroll(body: &mut Vec<Stmt>, prefix: &str, next: &mut usize) {
    for s in body.iter_mut() {
        match &mut s.kind {
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => reroll(body, prefix, next),
            StmtKind::If { then, otherwise, .. } => {
                reroll(then, prefix, next);
                reroll(otherwise, prefix, next);
            }
            StmtKind::Case { arms, .. } => arms.iter_mut().for_each(|a| reroll(&mut a.body, prefix, next)),
            _ => {}
        }
    }
    let shapes: Vec<(String, Vec<BigInt>)> = body.iter().map(shape_of).collect();
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        match longest_run(&shapes, i) {
            Some((period, groups, step)) => {
                let var = format!("{prefix}{next}");
                *next += 1;
                let mut group: Vec<Stmt> = body[i..i + period].to_vec();
                let mut k = 0;
                walk_stmts_mut(
                    &mut group,
                    &mut |e: &mut Expr| {
                        if let Expr::Int(c) = e {
                            if step[k] != BigInt::from(0) {
                                let scaled =
                                    Expr::binary(BinOp::Mul, Expr::Var(var.clone()), Expr::Int(step[k].clone()));
                                *e = Expr::binary(BinOp::Add, scaled, Expr::Int(c.clone()));
                            }
                            k += 1;
                        }
                    },
                    &mut |_| {},
                );
                let for_loop = StmtKind::For {
                    var: var.clone(),
                    from: Expr::int(0),
                    to: Expr::Int(BigInt::from(groups - 1)),
                    descending: false,
                    body: group,
                };
                out.push(Stmt { span: body[i].span, kind: for_loop });
                i += period * groups;
            }
            None => {
                out.push(body[i].clone());
                i += 1;
            }
        }
    }
    *body = out;
}

/// The best run starting at `i`: a group of `period` statements repeated
/// `groups >= 2` times, its numbers stepping by `step` per repetition.
/// Longer runs (in statements) win; shorter periods break ties.
fn longest_run(shapes: &[(String, Vec<BigInt>)], i: usize) -> Option<(usize, usize, Vec<BigInt>)> {
    let mut best: Option<(usize, usize, Vec<BigInt>)> = None;
    for period in 1..=4 {
        let values = |g: usize| -> Option<Vec<BigInt>> {
            let start = i + g * period;
            if start + period > shapes.len() {
                return None;
            }
            let mut v = Vec::new();
            for j in 0..period {
                if shapes[start + j].0 != shapes[i + j].0 {
                    return None;
                }
                v.extend(shapes[start + j].1.iter().cloned());
            }
            Some(v)
        };
        let (Some(first), Some(second)) = (values(0), values(1)) else { continue };
        let step: Vec<BigInt> = second.iter().zip(&first).map(|(a, b)| a - b).collect();
        let mut groups = 2;
        let mut prev = second;
        while let Some(v) = values(groups) {
            let d: Vec<BigInt> = v.iter().zip(&prev).map(|(a, b)| a - b).collect();
            if d != step {
                break;
            }
            prev = v;
            groups += 1;
        }
        if best.as_ref().is_none_or(|(p, g, _)| period * groups > p * g) {
            best = Some((period, groups, step));
        }
    }
    best
}

/// A statement's structure without numbers and positions, and its numbers.
fn shape_of(s: &Stmt) -> (String, Vec<BigInt>) {
    let mut t = s.clone();
    clear_spans(std::slice::from_mut(&mut t));
    let mut values = Vec::new();
    walk_stmts_mut(
        std::slice::from_mut(&mut t),
        &mut |e: &mut Expr| {
            if let Expr::Int(c) = e {
                values.push(c.clone());
                *e = Expr::Int(BigInt::from(0));
            }
        },
        &mut |_| {},
    );
    (serde_json::to_string(&t).expect("IR serializes"), values)
}
