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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::x86::pseudocode::parse_operation;
    use crate::sema::print::semantics_to_string;

    fn rerolled(src: &str) -> String {
        let mut body = parse_operation(src).unwrap().body;
        let mut next = 0;
        reroll(&mut body, "r", &mut next);
        let s = crate::sema::ir::Semantics {
            name: "t".into(),
            args: vec![],
            result: crate::sema::ir::Arg {
                name: "dst".into(),
                kind: crate::sema::ir::ArgKind::Vector,
                width: 128,
                elem: crate::sema::ir::ElemType { width: 8, signed: false },
                imm_bits: None,
                imm_range: None,
            },
            functions: vec![],
            body,
        };
        semantics_to_string(&s).lines().skip(1).map(str::trim).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn stepped_runs_become_loops() {
        let text = rerolled("dst[15:0] := Saturate16(a[31:0])\ndst[31:16] := Saturate16(a[63:32])\ndst[47:32] := Saturate16(a[95:64])\ndst[63:48] := Saturate16(b[31:0])\n");
        assert_eq!(
            text,
            "FOR r0 := 0 to 2\ndst[((r0 * 16) + 15):((r0 * 16) + 0)] := Saturate16(a[((r0 * 32) + 31):((r0 * 32) + 0)])\nENDFOR\ndst[63:48] := Saturate16(b[31:0])"
        );
    }

    #[test]
    fn alternating_pairs_reroll_with_period_two() {
        let text = rerolled("d[7:0] := x[71:64]\nd[15:8] := y[71:64]\nd[23:16] := x[79:72]\nd[31:24] := y[79:72]\n");
        assert!(text.starts_with("FOR r0 := 0 to 1\n"), "{text}");
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    #[test]
    fn uneven_steps_stay_unrolled() {
        let text = rerolled("d[7:0] := x[7:0]\nd[15:8] := x[15:8]\nd[31:16] := x[31:16]\n");
        assert!(!text.contains("FOR r0 := 0 to 2"), "{text}");
    }

    #[test]
    fn lanes_of_element_loops_roll_into_a_loop_nest() {
        // Two 128-bit lanes, each two elements from `a` then two from `b`.
        let text = rerolled(
            "d[15:0] := a[15:0]\nd[31:16] := a[47:32]\nd[47:32] := b[15:0]\nd[63:48] := b[47:32]\n\
             d[143:128] := a[143:128]\nd[159:144] := a[175:160]\nd[175:160] := b[143:128]\nd[191:176] := b[175:160]\n",
        );
        let first = text.lines().next().unwrap_or_default();
        assert!(first.starts_with("FOR r") && first.ends_with(":= 0 to 1"), "{text}");
        assert_eq!(text.matches("FOR ").count(), 3, "{text}");
        assert!(text.contains("* 128)"), "{text}");
    }
}
