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
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let (shape, first) = shape_of(&body[i]);
        let mut end = i + 1;
        let mut step: Option<Vec<BigInt>> = None;
        while end < body.len() {
            let (s, values) = shape_of(&body[end]);
            if s != shape || values.len() != first.len() {
                break;
            }
            let prev = &shape_of(&body[end - 1]).1;
            let d: Vec<BigInt> = values.iter().zip(prev).map(|(a, b)| a - b).collect();
            match &step {
                None => step = Some(d),
                Some(st) if *st == d => {}
                Some(_) => break,
            }
            end += 1;
        }
        match step {
            Some(step) if end - i >= 2 => {
                let var = format!("{prefix}{next}");
                *next += 1;
                let mut template = body[i].clone();
                let mut k = 0;
                walk_stmts_mut(
                    std::slice::from_mut(&mut template),
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
                    to: Expr::Int(BigInt::from(end - i - 1)),
                    descending: false,
                    body: vec![template],
                };
                out.push(Stmt { span: body[i].span, kind: for_loop });
                i = end;
            }
            _ => {
                out.push(body[i].clone());
                i += 1;
            }
        }
    }
    *body = out;
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
