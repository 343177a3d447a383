//! Finding a program that computes a window. First one instruction:
//! candidates from the grammar whose result and operands fit the window's
//! root and leaves by size, every binding of operands to leaves and every
//! immediate, screened on concrete inputs. If none survives, two steps, then
//! three (see [`super::compose`]). The cheapest survivors, at most a few per class, are
//! proved equal by Z3 over the full width (where the window is defined).
//! Nothing unproved is used.

use super::block::{Dataflow, Window};
use super::grammar::{Candidate, Grammar};
use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::proof::Claim;
use super::target::Cpu;
use super::types::Ty;
use dialectgen::eval::Concrete;
use num_bigint::BigUint;
use rayon::prelude::*;
use std::collections::HashMap;

pub use super::limits::Limits;
pub use super::outcome::{Budget, Outcome, Refutation, Unchanged, Unproved};
use super::screen::{constant_leaves, eval_window, samples, Screen};

/// Searches for a program computing `window`, whose constants must be
/// leaves already (see [`Dataflow::lift_constants`]): the constants' values
/// are fixed in samples and proofs, the other leaves vary.
pub fn synthesize(flow: &Dataflow, window: &Window, grammar: &Grammar, limits: &Limits) -> Outcome {
    let root_op = &flow.ops[window.root];
    let Some(root_ty) = root_op.result_types.first().cloned().flatten() else {
        return Outcome::Unchanged(Unchanged::Unsupported("the result is not an integer vector".into()));
    };
    let leaf_types: Option<Vec<Ty>> = window.leaves.iter().map(|v| flow.type_of(*v)).collect();
    let Some(leaf_types) = leaf_types else {
        return Outcome::Unchanged(Unchanged::Unsupported("an input is not an integer or integer vector".into()));
    };
    let constants = match constant_leaves(flow, window) {
        Ok(c) => c,
        Err(e) => return Outcome::Unchanged(Unchanged::Unsupported(e.to_string())),
    };
    let variable = leaf_types.len() - constants.len();
    let (inputs, expected) = match sampled(flow, window, &leaf_types[..variable], &constants) {
        Ok(s) => s,
        Err(e) => return Outcome::Unchanged(Unchanged::Unsupported(e.to_string())),
    };
    let (elem_bits, value_bits) = sizes(flow, window, &leaf_types);
    let window_cost = window_cost(flow, window);
    let screen = Screen {
        max_cost: window_cost.max(1),
        grammar,
        limits,
        leaf_types,
        variable,
        root_bits: root_ty.bits(),
        elem_bits,
        value_bits,
        inputs,
        expected,
        started: std::time::Instant::now(),
        out_of_time: std::sync::atomic::AtomicBool::new(false),
    };
    // One instruction reads every input; two read at most twice its operands but one.
    let most = grammar.most_operands();
    if screen.variable > 2 * most - 1 {
        return Outcome::Unchanged(Unchanged::Unsupported(format!(
            "the window reads {} inputs, more than two instructions can",
            screen.variable
        )));
    }
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    let mut survivors = screened(&screen, &root_ty, window_cost, trace);
    if survivors.is_empty() {
        if screen.out_of_time.load(std::sync::atomic::Ordering::Relaxed) {
            return timed_out(limits, "screening candidates");
        }
        let matrix = root_ty.dims.len() == 2 && root_ty.dims.iter().all(|&d| d >= 2);
        return Outcome::Unchanged(Unchanged::NoCandidate { transpose_too: matrix });
    }
    let cheapest = survivors.iter().map(|p| p.cost(grammar)).min().unwrap_or(0);
    survivors.retain(|p| {
        let cost = p.cost(grammar);
        cost < window_cost || (cost == window_cost && window_cost == 1 && p.steps.len() == 1)
    });
    if survivors.is_empty() {
        return Outcome::Unchanged(Unchanged::NotCheaper { cheapest, window: window_cost });
    }
    if let Some(dearer) = priced(flow, window, grammar, limits.cpu, &mut survivors) {
        return Outcome::Unchanged(dearer);
    }
    proved(flow, window, &screen, &constants, survivors, trace)
}

/// A window's samples (each leaf's value) and its value on each, where
/// it is defined.
type Samples = (Vec<Vec<BigUint>>, Vec<Option<BigUint>>);

/// The window's samples (the variable leaves of types `variable` random
/// and at edges, then the constants) and its value on each, where it is
/// defined; or why it cannot be evaluated.
fn sampled(
    flow: &Dataflow,
    window: &Window,
    variable: &[Ty],
    constants: &[BigUint],
) -> Result<Samples, super::semantics::SemaError> {
    let mut inputs = samples(variable, 12);
    for s in &mut inputs {
        s.extend(constants.iter().cloned());
    }
    let mut expected = Vec::new();
    for s in &inputs {
        let mut dom = Concrete;
        let (v, defined) = eval_window(&mut dom, flow, window, s)?;
        let ok = defined.iter().all(|d| *d == BigUint::from(1u8));
        expected.push(ok.then_some(v.bits));
    }
    Ok((inputs, expected))
}

/// The element sizes and the value sizes the window's leaves and ops have,
/// each in increasing order.
fn sizes(flow: &Dataflow, window: &Window, leaf_types: &[Ty]) -> (Vec<u32>, Vec<u32>) {
    let mut types = leaf_types.to_vec();
    for &pos in &window.ops {
        types.extend(flow.ops[pos].result_types.iter().flatten().cloned());
    }
    let sizes = |f: fn(&Ty) -> u32| {
        let mut v: Vec<u32> = types.iter().map(f).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    (sizes(|t| t.elem_bits), sizes(|t| t.bits()))
}

/// The window's cost as written. A program must be cheaper than the
/// window as written (one instruction per op that computes, and one per
/// sum a contraction makes), or, for a window of one op, as cheap and a
/// single instruction. A tie with more ops is no gain: LLVM may well do
/// better with the ops (a product by a power of two is a shift).
fn window_cost(flow: &Dataflow, window: &Window) -> usize {
    window
        .ops
        .iter()
        .map(|&p| match flow.ops[p].name.as_str() {
            "arith.constant" | "vector.shape_cast" | "vector.bitcast" => 0,
            "vector.contract" => flow.ops[p].result_types.first().cloned().flatten().map_or(1, |t| t.lanes() as usize),
            _ => 1,
        })
        .sum()
}

/// Where `cpu` has a model and prices the window: the survivors (each
/// already fewer instructions) no dearer there than the window as written,
/// or why none is. A program it cannot price (a shuffle LLVM picks) is
/// left to the count.
fn priced(
    flow: &Dataflow,
    window: &Window,
    grammar: &Grammar,
    cpu: Cpu,
    survivors: &mut Vec<Program>,
) -> Option<Unchanged> {
    let as_written = super::op_price::cycles(cpu, flow, window.ops.iter().map(|&p| &flow.ops[p]))?;
    let cycles: Vec<Option<f64>> = survivors.iter().map(|p| p.cycles(grammar, cpu)).collect();
    let cheapest = cycles.iter().flatten().fold(f64::INFINITY, |a, &b| a.min(b));
    let mut no_dearer = cycles.iter().map(|c| c.is_none_or(|c| c <= as_written + 1e-9));
    survivors.retain(|_| no_dearer.next().unwrap_or(true));
    let hundredths = |c: f64| (c * 100.0).round() as u64;
    survivors.is_empty().then(|| Unchanged::DearerOnCpu {
        cheapest: hundredths(cheapest),
        window: hundredths(as_written),
        cpu: cpu.name().to_string(),
    })
}

/// The programs that agree with the window on the samples: of one
/// instruction; else of two or three steps; else a matrix result computed
/// transposed.
fn screened(screen: &Screen, root_ty: &Ty, window_cost: usize, trace: bool) -> Vec<Program> {
    let (grammar, limits) = (screen.grammar, screen.limits);
    let one = |(ci, c): (usize, &Candidate)| -> Vec<Program> {
        let t0 = std::time::Instant::now();
        let out = screen.single(ci, c);
        if trace && t0.elapsed().as_millis() > 50 {
            eprintln!("hydride:   {} screened in {:?}", c.intrinsic, t0.elapsed());
        }
        out
    };
    let mut survivors: Vec<Program> = grammar.candidates.par_iter().enumerate().flat_map_iter(one).collect();
    if trace {
        eprintln!(
            "hydride: one instruction: {} candidates in {:?}; {} survive",
            grammar.candidates.len(),
            screen.started.elapsed(),
            survivors.len()
        );
    }
    // Two steps cost at least one instruction: no gain over a window of one op.
    if survivors.is_empty() && limits.evaluations > 0 && window_cost >= 2 && !screen.expired() {
        survivors = super::compose::two_steps(screen);
        if trace {
            eprintln!("hydride: two steps: {:?} in all; {} survive", screen.started.elapsed(), survivors.len());
        }
    }
    if survivors.is_empty() && limits.evaluations > 0 && window_cost >= 2 && !screen.expired() {
        survivors = transposed(screen, root_ty);
        if trace {
            eprintln!("hydride: transposed: {:?} in all; {} survive", screen.started.elapsed(), survivors.len());
        }
    }
    survivors
}

/// The window's time limit reached while doing `what`.
fn timed_out(limits: &Limits, what: &str) -> Outcome {
    let why = format!("time limit of {} ms reached while {what}", limits.window_ms);
    Outcome::Unchanged(Unchanged::OutOfBudget { budget: Budget::Window, why })
}

/// The first program of the survivors' shortlist Z3 proves equal to the
/// window, or why none was.
fn proved(
    flow: &Dataflow,
    window: &Window,
    screen: &Screen,
    constants: &[BigUint],
    survivors: Vec<Program>,
    trace: bool,
) -> Outcome {
    let (grammar, limits) = (screen.grammar, screen.limits);
    let mut unproved: Vec<Unproved> = Vec::new();
    let (first, rest) = shortlist(grammar, survivors, limits);
    // Survivors the samples did not tell apart: where each of the
    // shortlist is refuted by an input, the next ones are proved too.
    let refuted = |unproved: &[Unproved]| unproved.iter().all(|u| u.refutation == Refutation::Differs);
    let more = rest.into_iter().take(MORE_PROOFS * limits.proofs);
    for (k, program) in first.into_iter().map(|p| (0, p)).chain(more.map(|p| (1, p))) {
        if k == 1 && !refuted(&unproved) {
            break;
        }
        if screen.expired() {
            return timed_out(limits, "proving candidates");
        }
        let proving = std::time::Instant::now();
        let claim = Claim { flow, window, leaf_types: &screen.leaf_types, constants, grammar, program: &program };
        let verdict = claim.prove(limits.proof_ms);
        if trace {
            eprintln!("hydride: proof of {} took {:?}: {verdict:?}", program.describe(grammar), proving.elapsed());
        }
        match verdict {
            Ok(()) => return Outcome::Found(program),
            Err(failure) => unproved.push(Unproved {
                program: program.describe(grammar),
                refutation: failure.refutation(),
                why: failure.to_string(),
            }),
        }
    }
    Outcome::Unchanged(Unchanged::Unproved(unproved))
}

/// Programs that compute a matrix result transposed and transpose it
/// back, as `C = (B·Aᵀ)ᵀ` computes `A·Bᵀ` with an instruction that takes
/// its operands the other way round (`usmmla` for a signed by unsigned
/// product; the accumulator, of the result's type, is read transposed
/// too). For a result of at least two rows and two columns, the search
/// runs again for the transposed result over the leaves with those of the
/// result's type transposed; each program found gets those transposes
/// first and one of its result last. Programs are proved whole
/// afterwards, like any other.
fn transposed(screen: &Screen, root: &Ty) -> Vec<Program> {
    let &[rows, cols] = root.dims.as_slice() else { return Vec::new() };
    if rows < 2 || cols < 2 {
        return Vec::new();
    }
    let there = Swizzle::transpose(rows, cols, root.elem_bits);
    let back = Swizzle::transpose(cols, rows, root.elem_bits);
    let flipped: Vec<usize> = (0..screen.variable).filter(|&l| screen.leaf_types[l] == *root).collect();
    let transpose = |v: &BigUint| there.apply(&mut Concrete, std::slice::from_ref(v));
    let mut leaf_types = screen.leaf_types.clone();
    for &l in &flipped {
        leaf_types[l] = Ty { dims: vec![cols, rows], elem_bits: root.elem_bits };
    }
    let inputs = screen
        .inputs
        .iter()
        .map(|s| {
            s.iter().enumerate().map(|(l, v)| if flipped.contains(&l) { transpose(v) } else { v.clone() }).collect()
        })
        .collect();
    let inner = screen.with_samples(
        leaf_types,
        inputs,
        screen.expected.iter().map(|e| e.as_ref().map(transpose)).collect(),
        screen.max_cost.saturating_sub(back.cost() * (1 + flipped.len())),
    );
    let mut found: Vec<Program> =
        screen.grammar.candidates.par_iter().enumerate().flat_map_iter(|(ci, c)| inner.single(ci, c)).collect();
    if found.is_empty() && !inner.expired() {
        found = super::compose::two_steps(&inner);
    }
    if inner.out_of_time.load(std::sync::atomic::Ordering::Relaxed) {
        screen.out_of_time.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    found.into_iter().map(|p| transposed_back(p, &flipped, &there, &back)).collect()
}

/// `program`, which reads leaves `flipped` transposed and computes the
/// transposed result, made to read the leaves as they are and compute the
/// result: a transpose (`there`) of each flipped leaf it reads first, one of
/// its result (`back`) last.
fn transposed_back(program: Program, flipped: &[usize], there: &Swizzle, back: &Swizzle) -> Program {
    let read = |l: usize| program.steps.iter().any(|s| s.operands.contains(&Source::Leaf(l)));
    let firsts: Vec<usize> = flipped.iter().copied().filter(|&l| read(l)).collect();
    let mut steps: Vec<Step> =
        firsts.iter().map(|&l| Step { op: StepOp::Swizzle(there.clone()), operands: vec![Source::Leaf(l)] }).collect();
    let shift = firsts.len();
    steps.extend(program.steps.into_iter().map(|mut s| {
        for o in &mut s.operands {
            *o = match *o {
                Source::Leaf(l) => firsts.iter().position(|&f| f == l).map_or(Source::Leaf(l), Source::Step),
                Source::Step(k) => Source::Step(k + shift),
            };
        }
        s
    }));
    let last = Source::Step(steps.len() - 1);
    steps.push(Step { op: StepOp::Swizzle(back.clone()), operands: vec![last] });
    Program { steps }
}

/// How many times `Limits::proofs` more survivors are proved when every
/// one of the shortlist is refuted.
const MORE_PROOFS: usize = 3;

/// The survivors worth proving, and the rest in the same order: cheapest first (in cycles on the CPU's
/// model where it prices them, then in instructions; then intrinsics before
/// generic IR; ties in grammar order), at
/// most `per_class` per class of the last instruction, `proofs` in all.
fn shortlist(grammar: &Grammar, mut survivors: Vec<Program>, limits: &Limits) -> (Vec<Program>, Vec<Program>) {
    // On a CPU's model, the fewest cycles first; then the fewest instructions.
    let cycles = |p: &Program| p.cycles(grammar, limits.cpu).map_or(u64::MAX, |c| (c * 100.0).round() as u64);
    let order = |p: &Program| {
        let ids: Vec<usize> = p
            .steps
            .iter()
            .map(|s| match &s.op {
                super::program::StepOp::Instr { candidate, .. } => *candidate,
                super::program::StepOp::Swizzle(_) => usize::MAX,
            })
            .collect();
        // At a tie, a target intrinsic before generic IR LLVM selects from.
        let generic = p
            .steps
            .iter()
            .filter(|s| matches!(&s.op, super::program::StepOp::Instr { candidate, .. } if grammar.candidates[*candidate].generic))
            .count();
        (cycles(p), p.cost(grammar), p.steps.len(), generic, ids)
    };
    survivors.sort_by_cached_key(order);
    let class_of = |p: &Program| {
        p.steps.iter().rev().find_map(|s| match &s.op {
            super::program::StepOp::Instr { candidate, .. } => Some(grammar.candidates[*candidate].class_op.clone()),
            super::program::StepOp::Swizzle(_) => None,
        })
    };
    let mut per_class: HashMap<Option<String>, usize> = HashMap::new();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for p in survivors {
        let n = per_class.entry(class_of(&p)).or_default();
        *n += 1;
        if *n <= limits.per_class && first.len() < limits.proofs {
            first.push(p);
        } else {
            rest.push(p);
        }
    }
    (first, rest)
}

/// Proves `program` computes the window `lifted` (constants lifted to
/// leaves) wherever it is defined, within the limits' proof budget.
pub fn prove(
    flow: &Dataflow,
    lifted: &Window,
    grammar: &Grammar,
    limits: &Limits,
    program: &Program,
) -> Result<(), super::proof_failure::ProofFailure> {
    let leaf_types: Vec<Ty> = lifted
        .leaves
        .iter()
        .map(|v| flow.type_of(*v))
        .collect::<Option<_>>()
        .ok_or("an input is not an integer or integer vector")?;
    let constants = constant_leaves(flow, lifted).map_err(|e| e.to_string())?;
    Claim { flow, window: lifted, leaf_types: &leaf_types, constants: &constants, grammar, program }
        .prove(limits.proof_ms)
}
