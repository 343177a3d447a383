//! Equivalence proofs with Z3: three outcomes, and a timeout on every query.

use crate::eval::typing::formula_over;
use crate::sema::ir::Semantics;
use z3::ast::{Ast, BV};
use z3::{Params, SatResult, Solver};

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Equal,
    Differ,
    /// Timeout, solver `unknown`, or a formula that could not be built.
    Unknown(String),
}

/// Proves `a` and `b` compute the same result, where argument `k` of `b` is
/// argument `b_arg_from_a[k]` of `a`.
pub fn prove_equal(a: &Semantics, b: &Semantics, b_arg_from_a: &[usize], timeout_ms: u32) -> Verdict {
    if a.result.width != b.result.width || a.args.len() != b.args.len() {
        return Verdict::Differ;
    }
    let inputs: Vec<BV> = a.args.iter().enumerate().map(|(i, x)| BV::new_const(format!("x{i}"), x.width)).collect();
    let b_inputs: Vec<BV> = b_arg_from_a.iter().map(|&i| inputs[i].clone()).collect();
    if b.args.iter().zip(&b_inputs).any(|(arg, bv)| arg.width != bv.get_size()) {
        return Verdict::Differ;
    }
    let (fa, fb) = match (formula_over(a, &inputs), formula_over(b, &b_inputs)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Verdict::Unknown(e.to_string()),
    };
    if fa == fb || fa.simplify() == fb.simplify() {
        return Verdict::Equal;
    }
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", timeout_ms);
    solver.set_params(&params);
    solver.assert(fa.eq(&fb).not());
    match solver.check() {
        SatResult::Unsat => Verdict::Equal,
        SatResult::Sat => Verdict::Differ,
        SatResult::Unknown => Verdict::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())),
    }
}
