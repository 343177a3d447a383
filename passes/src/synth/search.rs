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
use dialectgen::validate::cases::{random_bits, Rng};
use num_bigint::BigUint;
use rayon::prelude::*;
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
    /// The window's time limit ran out (not memoized: more time may find one).
    OutOfTime(String),
}

pub struct Limits {
    /// Which instructions may be used.
    pub target: super::grammar::Target,
    /// Z3 budget per proof, in milliseconds (as `hydride gen`'s).
    pub proof_ms: u32,
    /// Bindings (operands and immediates) tried per candidate.
    pub bindings: usize,
    /// Candidates proved at most per window.
    pub proofs: usize,
    /// Wall-clock limit for one window (screening and proofs), in milliseconds.
    pub window_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { target: super::grammar::Target::X86Avx512, proof_ms: 20_000, bindings: 512, proofs: 4, window_ms: 60_000 }
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

/// Sample inputs: pseudo-random bits first (they tell most candidates
/// apart at once), then zeros, all ones, and every element at its signed
/// maximum or minimum (saturation and overflow show there).
fn samples(types: &[Ty], count: usize) -> Vec<Vec<BigUint>> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let per_element = |t: &Ty, element: &BigUint| {
        (0..t.lanes()).fold(BigUint::from(0u8), |acc, i| acc | (element << (i * t.elem_bits)))
    };
    let edge = |k: usize, t: &Ty| {
        let top = BigUint::from(1u8) << (t.elem_bits - 1);
        match k {
            0 => BigUint::from(0u8),
            1 => (BigUint::from(1u8) << t.bits()) - 1u8,
            2 => per_element(t, &(&top - 1u8)),
            _ => per_element(t, &top),
        }
    };
    (0..count)
        .map(|k| match k.checked_sub(count.saturating_sub(4)) {
            Some(e) => types.iter().map(|t| edge(e, t)).collect(),
            None => types.iter().map(|t| random_bits(&mut rng, t.bits())).collect(),
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

/// The immediate (at most one) that makes the candidate agree with the
/// window on a few samples, solved for by Z3 with the inputs concrete (the
/// synthesis step of CEGIS; the proof that follows is the verification).
/// `Some(vec![])` for a candidate without immediates.
fn immediates_for(c: &Candidate, binding: &[usize], inputs: &[Vec<BigUint>], expected: &[Option<BigUint>]) -> Option<Vec<u32>> {
    let [(pos, _, bits)] = c.immediates.as_slice() else {
        return c.immediates.is_empty().then(Vec::new);
    };
    let width = c.semantics.args[*pos].width;
    z3::with_z3_config(&z3::Config::new(), || {
        let imm = BV::new_const("imm", width);
        let solver = z3::Solver::new();
        if *bits < width {
            solver.assert(imm.bvult(BV::from_u64(1u64 << bits, width)));
        }
        let mut dom = Smt::exact();
        let defined: Vec<(&Vec<BigUint>, &BigUint)> =
            inputs.iter().zip(expected).filter_map(|(s, w)| w.as_ref().map(|w| (s, w))).collect();
        // Counterexample-guided: constrain by one sample, try the solution
        // on all of them, add the first that disagrees, repeat.
        let mut next = defined.first().copied();
        for _ in 0..4 {
            let (s, want) = next?;
            let leaves: Vec<BV> = s.iter().enumerate().map(|(l, x)| dom.literal(x, leaf_width(c, binding, l))).collect();
            let args = arguments(c, binding, &[0], &|l| leaves[l].clone(), &|_, _| imm.clone());
            let got = dialectgen::eval::typing::formula_over(&c.semantics, &args).ok()?;
            solver.assert(got.eq(dom.literal(want, c.semantics.result.width)));
            if solver.check() != z3::SatResult::Sat {
                return None;
            }
            let v = u32::try_from(solver.get_model()?.eval(&imm, true)?.as_u64()?).ok()?;
            next = defined.iter().copied().find(|(s, want)| {
                let args = arguments(c, binding, &[v], &|l| s[l].clone(), &|v, _| BigUint::from(v));
                !matches!(Machine::new(&mut Concrete, &c.semantics).run(&args), Ok(got) if got == **want)
            });
            if next.is_none() {
                return Some(vec![v]);
            }
        }
        None
    })
}

/// The width of leaf `l` as the candidate's operand bound to it takes it.
fn leaf_width(c: &Candidate, binding: &[usize], l: usize) -> u32 {
    binding.iter().position(|&b| b == l).map(|k| c.operands[k].1.bits()).unwrap_or(0)
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
    let inputs = samples(&leaf_types, 12);
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
    let started = std::time::Instant::now();
    let deadline = std::time::Duration::from_millis(limits.window_ms);
    let out_of_time = std::sync::atomic::AtomicBool::new(false);
    let screen_one = |ci: usize, c: &Candidate| -> Vec<(usize, Found)> {
        let mut out = Vec::new();
        if started.elapsed() > deadline {
            out_of_time.store(true, std::sync::atomic::Ordering::Relaxed);
            return out;
        }
        if c.result.bits() != root_ty.bits() || c.operands.len() < window.leaves.len() || !limits.target.allows(&c.cpuid) {
            return out;
        }
        for binding in bindings(c, &leaf_types, limits.bindings) {
            let Some(imms) = immediates_for(c, &binding, &inputs, &expected) else { continue };
            let agrees = inputs.iter().zip(&expected).all(|(s, want)| {
                let Some(want) = want else { return true };
                let args = arguments(c, &binding, &imms, &|l| s[l].clone(), &|v, _| BigUint::from(v));
                matches!(Machine::new(&mut Concrete, &c.semantics).run(&args), Ok(got) if got == *want)
            });
            if agrees {
                let immediates = c.immediates.iter().zip(&imms).map(|((_, n, _), v)| (n.clone(), *v)).collect();
                out.push((c.cost, Found { candidate: ci, operands: binding.clone(), immediates }));
            }
        }
        out
    };
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    let screen = |(ci, c): (usize, &Candidate)| -> Vec<(usize, Found)> {
        let t0 = std::time::Instant::now();
        let out = screen_one(ci, c);
        if trace && t0.elapsed().as_millis() > 50 {
            eprintln!("hydride:   {} screened in {:?}", c.intrinsic, t0.elapsed());
        }
        out
    };
    let mut survivors: Vec<(usize, Found)> =
        grammar.candidates.par_iter().enumerate().flat_map_iter(screen).collect();
    if trace {
        eprintln!("hydride: screening {} candidates took {:?}; {} survive", grammar.candidates.len(), started.elapsed(), survivors.len());
    }
    let timed_out = |what: &str| Outcome::OutOfTime(format!("time limit of {} ms reached while {what}", limits.window_ms));
    if survivors.is_empty() {
        if out_of_time.load(std::sync::atomic::Ordering::Relaxed) {
            return timed_out("screening candidates");
        }
        return Outcome::Unchanged("no instruction of the target computes this window on sample inputs".into());
    }
    survivors.sort_by_key(|(cost, f)| (*cost, f.candidate));
    let mut reasons = Vec::new();
    for (_, found) in survivors.into_iter().take(limits.proofs) {
        if started.elapsed() > deadline {
            return timed_out("proving candidates");
        }
        let c = &grammar.candidates[found.candidate];
        let proving = std::time::Instant::now();
        let verdict = prove(flow, window, &leaf_types, c, &found, limits.proof_ms);
        if trace {
            eprintln!("hydride: proof against {} took {:?}: {verdict:?}", c.intrinsic, proving.elapsed());
        }
        match verdict {
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
