//! Loop rerolling: runs of statements that differ only in numbers that
//! step evenly become one counted loop, so an unrolled 512-bit instruction
//! and its looped 128-bit sibling look alike.

use crate::sema::ir::{BinOp, Expr, Stmt, StmtKind};
use crate::sema::visit::{child_blocks, child_blocks_mut, clear_spans, walk_stmts_mut};
use num_bigint::BigInt;

/// Rerolls `body` and every nested block. Loop counters are named
/// `{prefix}0`, `{prefix}1`, … (the caller picks a prefix no program uses).
pub fn reroll(body: &mut Vec<Stmt>, prefix: &str, next: &mut usize) {
    for s in body.iter_mut() {
        for block in child_blocks_mut(s) {
            reroll(block, prefix, next);
        }
    }
    // Runs of the loops just made (lanes of element loops) roll again.
    while reroll_level(body, prefix, next) {}
}

/// One rerolling pass over the statements of `body` itself: whether any
/// run became a loop.
fn reroll_level(body: &mut Vec<Stmt>, prefix: &str, next: &mut usize) -> bool {
    let shapes: Vec<(String, Vec<BigInt>)> = body.iter().map(shape_of).collect();
    let mut changed = false;
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        match shortest_period_run(&shapes, i) {
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
                changed = true;
            }
            None => {
                out.push(body[i].clone());
                i += 1;
            }
        }
    }
    *body = out;
    changed
}

/// The run starting at `i` with the shortest period: a group of `period`
/// statements repeated `groups >= 2` times, its numbers stepping by `step`
/// per repetition.
fn shortest_period_run(shapes: &[(String, Vec<BigInt>)], i: usize) -> Option<(usize, usize, Vec<BigInt>)> {
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
        // The shortest period rolls first: element loops inside, lanes
        // around them on the next pass.
        return Some((period, groups, step));
    }
    None
}

/// A statement's structure without numbers, positions and the names of the
/// loop counters it declares, and its numbers.
fn shape_of(s: &Stmt) -> (String, Vec<BigInt>) {
    let mut t = s.clone();
    clear_spans(std::slice::from_mut(&mut t));
    let mut counters = Vec::new();
    collect_counters(std::slice::from_ref(&t), &mut counters);
    let local = |v: &str| counters.iter().position(|c| c == v).map(|k| format!("#loop{k}"));
    walk_stmts_mut(
        std::slice::from_mut(&mut t),
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if let Some(n) = local(v) {
                    *v = n;
                }
            }
        },
        &mut |v: &mut String| {
            if let Some(n) = local(v) {
                *v = n;
            }
        },
    );
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

/// The loop counters declared in `body`, outermost first.
fn collect_counters(body: &[Stmt], out: &mut Vec<String>) {
    for st in body {
        if let StmtKind::For { var, .. } = &st.kind {
            out.push(var.clone());
        }
        for block in child_blocks(st) {
            collect_counters(block, out);
        }
    }
}
