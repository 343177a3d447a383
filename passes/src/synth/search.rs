//! Finding one instruction that computes a window: candidates from the
//! grammar whose result and operands fit the window's root and leaves by
//! size, every binding of operands to leaves and every immediate, screened
//! on concrete inputs, then the cheapest survivors proved equal by Z3 over
//! the full width (where the window is defined). Nothing unproved is used.

use super::block::{Dataflow, Window};
use super::grammar::{Candidate, Grammar};
use super::semantics::{SemaError, Val};
use super::types::Ty;
use dialectgen::eval::domain::Domain;
use dialectgen::eval::smt::Smt;
use dialectgen::eval::{Concrete, Machine};
use num_bigint::BigUint;
use std::collections::HashMap;
use z3::ast::{Ast, BV};

/// A proved replacement of a window by one class op.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub candidate: usize,
    /// For each operand of the class op, the leaf (index into `Window::leaves`).
    pub operands: Vec<usize>,
    /// Immediate attributes and their values.
    pub immediates: Vec<(String, u32)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Found(Found),
    /// Why no rewrite was made.
    Unchanged(String),
}

pub struct Limits {
    /// Z3 budget per proof, in milliseconds (as `hydride gen`'s).
    pub proof_ms: u32,
    /// Bindings (operands and immediates) tried per candidate.
    pub bindings: usize,
    /// Candidates proved at most per window.
    pub proofs: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { proof_ms: 20_000, bindings: 512, proofs: 4 }
    }
}

/// Evaluates the window with the leaves given (in `Window::leaves` order).
pub fn eval_window<D: Domain>(
    dom: &mut D,
    flow: &Dataflow,
    window: &Window,
    leaves: &[D::Bv],
) -> Result<(Val<D::Bv>, Vec<D::Bv>), SemaError> {
    let mut env: HashMap<usize, Val<D::Bv>> = HashMap::new();
    for (v, bits) in window.leaves.iter().zip(leaves) {
        let ty = flow.type_of(*v).ok_or_else(|| SemaError::Unsupported(format!("the type of value {v}")))?;
        env.insert(*v, Val::new(bits.clone(), ty));
    }
    let mut ev = super::semantics::Evaluator::new(dom);
    let mut last = None;
    for &pos in &window.ops {
        let op = &flow.ops[pos];
        let args: Vec<Val<D::Bv>> = op
            .operands
            .iter()
            .map(|v| env.get(v).cloned().ok_or_else(|| SemaError::Unsupported(format!("operand {v} of {}", op.name))))
            .collect::<Result<_, _>>()?;
        let results = ev.eval(op, &args)?;
        for (v, r) in op.results.iter().zip(results) {
            env.insert(*v, r.clone());
            last = Some(r);
        }
    }
    let root = last.ok_or_else(|| SemaError::Unsupported("an empty window".into()))?;
    Ok((root, ev.defined))
}

/// Sample inputs: edge patterns, then pseudo-random bits.
fn samples(widths: &[u32], count: usize) -> Vec<Vec<BigUint>> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|k| {
            widths
                .iter()
                .map(|&w| {
                    let ones = (BigUint::from(1u8) << w) - 1u8;
                    let bytes = |b: u8| BigUint::from_bytes_le(&vec![b; w.div_ceil(8) as usize]) & &ones;
                    match k {
                        0 => BigUint::from(0u8),
                        1 => ones,
                        // Largest and smallest signed elements of any width
                        // (saturation and overflow show there).
                        2 => bytes(0x7f),
                        3 => bytes(0x80),
                        _ => {
                            let mut x = BigUint::from(0u8);
                            for _ in 0..w.div_ceil(64) {
                                x = (x << 64) | BigUint::from(next());
                            }
                            x & ones
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// Candidate operand bindings: each operand to a leaf of its size, every
/// leaf used; at most `limit`.
fn bindings(c: &Candidate, leaf_types: &[Ty], limit: usize) -> Vec<Vec<usize>> {
    let options: Vec<Vec<usize>> = c
        .operands
        .iter()
        .map(|(_, t)| (0..leaf_types.len()).filter(|&l| leaf_types[l].bits() == t.bits()).collect())
        .collect();
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(options: &[Vec<usize>], leaves: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        if current.len() == options.len() {
            if (0..leaves).all(|l| current.contains(&l)) {
                out.push(current.clone());
            }
            return;
        }
        for &l in &options[current.len()] {
            current.push(l);
            go(options, leaves, current, out, limit);
            current.pop();
        }
    }
    go(&options, leaf_types.len(), &mut current, &mut out, limit);
    out
}

/// The candidate's arguments: bound leaves and immediates.
fn arguments<T: Clone>(c: &Candidate, binding: &[usize], imms: &[u32], leaf: &dyn Fn(usize) -> T, imm: &dyn Fn(u32, u32) -> T) -> Vec<T> {
    let mut args: Vec<Option<T>> = vec![None; c.semantics.args.len()];
    for ((pos, _), &l) in c.operands.iter().zip(binding) {
        args[*pos] = Some(leaf(l));
    }
    for ((pos, _, _), &v) in c.immediates.iter().zip(imms) {
        args[*pos] = Some(imm(v, c.semantics.args[*pos].width));
    }
    args.into_iter().map(|a| a.expect("every argument bound")).collect()
}

/// Every immediate combination (one immediate of up to 8 bits, or none).
fn immediate_choices(c: &Candidate) -> Option<Vec<Vec<u32>>> {
    match c.immediates.as_slice() {
        [] => Some(vec![Vec::new()]),
        [(_, _, bits)] => Some((0..(1u32 << bits)).map(|v| vec![v]).collect()),
        _ => None,
    }
}

pub fn synthesize(flow: &Dataflow, window: &Window, grammar: &Grammar, limits: &Limits) -> Outcome {
    let root_op = &flow.ops[window.root];
    let Some(root_ty) = root_op.result_types.first().and_then(|t| Ty::parse(t)) else {
        return Outcome::Unchanged("the result is not an integer vector".into());
    };
    let leaf_types: Option<Vec<Ty>> = window.leaves.iter().map(|v| flow.type_of(*v)).collect();
    let Some(leaf_types) = leaf_types else {
        return Outcome::Unchanged("an input is not an integer or integer vector".into());
    };
    let widths: Vec<u32> = leaf_types.iter().map(Ty::bits).collect();
    let inputs = samples(&widths, 12);
    // The window on the samples (None where it is undefined).
    let mut expected = Vec::new();
    for s in &inputs {
        let mut dom = Concrete;
        match eval_window(&mut dom, flow, window, s) {
            Ok((v, defined)) => {
                let ok = defined.iter().all(|d| *d == BigUint::from(1u8));
                expected.push(ok.then_some(v.bits));
            }
            Err(e) => return Outcome::Unchanged(e.to_string()),
        }
    }
    let mut survivors: Vec<(usize, Found)> = Vec::new();
    for (ci, c) in grammar.candidates.iter().enumerate() {
        if c.result.bits() != root_ty.bits() || c.operands.len() < window.leaves.len() {
            continue;
        }
        let Some(imm_choices) = immediate_choices(c) else { continue };
        'binding: for binding in bindings(c, &leaf_types, limits.bindings) {
            for imms in &imm_choices {
                let agrees = inputs.iter().zip(&expected).all(|(s, want)| {
                    let Some(want) = want else { return true };
                    let args = arguments(c, &binding, imms, &|l| s[l].clone(), &|v, _| BigUint::from(v));
                    matches!(Machine::new(&mut Concrete, &c.semantics).run(&args), Ok(got) if got == *want)
                });
                if agrees {
                    let immediates = c.immediates.iter().zip(imms).map(|((_, n, _), v)| (n.clone(), *v)).collect();
                    survivors.push((c.cost, Found { candidate: ci, operands: binding.clone(), immediates }));
                    continue 'binding;
                }
            }
        }
    }
    if survivors.is_empty() {
        return Outcome::Unchanged("no instruction of the target computes this window on sample inputs".into());
    }
    survivors.sort_by_key(|(cost, f)| (*cost, f.candidate));
    let mut reasons = Vec::new();
    for (_, found) in survivors.into_iter().take(limits.proofs) {
        let c = &grammar.candidates[found.candidate];
        match prove(flow, window, &leaf_types, c, &found, limits.proof_ms) {
            Ok(()) => return Outcome::Found(found),
            Err(why) => reasons.push(format!("{}: {why}", c.intrinsic)),
        }
    }
    Outcome::Unchanged(format!("no candidate proved equal ({})", reasons.join("; ")))
}

/// Z3: where the window is defined, the candidate computes the same bits.
fn prove(flow: &Dataflow, window: &Window, leaf_types: &[Ty], c: &Candidate, found: &Found, ms: u32) -> Result<(), String> {
    z3::with_z3_config(&z3::Config::new(), || {
        let leaves: Vec<BV> =
            leaf_types.iter().enumerate().map(|(i, t)| BV::new_const(format!("leaf{i}"), t.bits())).collect();
        let mut dom = Smt::exact();
        let (root, defined) = eval_window(&mut dom, flow, window, &leaves).map_err(|e| e.to_string())?;
        let imms: Vec<u32> = found.immediates.iter().map(|(_, v)| *v).collect();
        let args = arguments(c, &found.operands, &imms, &|l| leaves[l].clone(), &|v, w| BV::from_u64(u64::from(v), w));
        let theirs = dialectgen::eval::typing::formula_over(&c.semantics, &args).map_err(|e| e.to_string())?;
        let solver = z3::Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("rlimit", ms.saturating_mul(dialectgen::classify::proof::RLIMIT_PER_MS));
        params.set_u32("timeout", ms.saturating_mul(dialectgen::classify::proof::WALL_CLOCK_FACTOR));
        solver.set_params(&params);
        if root.bits.simplify() == theirs.simplify() {
            return Ok(());
        }
        let one = BV::from_u64(1, 1);
        for d in &defined {
            solver.assert(d.eq(&one));
        }
        solver.assert(root.bits.eq(&theirs).not());
        match solver.check() {
            z3::SatResult::Unsat => Ok(()),
            z3::SatResult::Sat => Err("differs on some input".into()),
            z3::SatResult::Unknown => Err(format!("unknown ({})", solver.get_reason_unknown().unwrap_or_default())),
        }
    })
}
