//! Two- and three-step programs, tried when no single instruction computes
//! a window.
//!
//! Bottom-up and observational: every value one step can compute from the
//! leaves (an instruction without immediates or at each value of an
//! immediate of few values, or a swizzle) is evaluated on
//! the samples; values that agree on every sample are one value, kept at its
//! cheapest (as in enumerative synthesis with observational equivalence).
//! The cheapest `Limits::components` values then feed a second step: an
//! instruction reading one of them
//! and leaves, or a swizzle of one or two of them. Survivors go to the
//! proof like one-instruction programs. Second-step instructions with
//! immediates are not tried (a solver call per pairing is too slow).
//! When no two-step program agrees, a third step: an instruction reading
//! two distinct one-step values of its operands' types (and leaves), as
//! `vpmaddwd` of two widenings, under a quarter of that budget.
//!
//! A program has at least one step that is a target intrinsic: instructions
//! clang lowers to generic IR, and swizzles, are what LLVM's own path starts
//! from, so programs made only of them are not searched.

use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::screen::{assignments, leaf_options, Screen, FEW_IMMEDIATES};
use num_bigint::BigUint;
use rayon::prelude::*;
use std::collections::HashMap;

/// A value computed by one step from leaves, on every sample.
struct Component {
    step: Step,
    cost: usize,
    bits: u32,
    /// Its values on the probes.
    values: Vec<BigUint>,
    /// Its value on the first sample where the window is defined.
    first: BigUint,
    /// Leaves it reads.
    reads: Vec<usize>,
    /// How far its sizes are from the window's values' (0 to 2).
    relevance: usize,
    /// Its step is generic IR or a swizzle, not a target intrinsic.
    generic: bool,
    /// Its element size.
    elem_bits: u32,
}

fn leaves_read(step: &Step) -> Vec<usize> {
    let mut r: Vec<usize> =
        step.operands.iter().filter_map(|s| if let Source::Leaf(l) = s { Some(*l) } else { None }).collect();
    r.sort_unstable();
    r.dedup();
    r
}

/// Samples a one-step value is first evaluated on (a random one and an
/// edge one); it is evaluated on the others only if kept.
const PROBES: [usize; 2] = [0, usize::MAX];

/// One-step values run at once (in parallel) before the count kept is checked.
const CHUNK: usize = 256;

/// Every one-step value over the leaves, deduplicated, cheapest first, at
/// most `Limits::components` of them. Steps are ordered by cost and
/// relevance before any is run and are evaluated in that order, a chunk at a
/// time, until that many distinct values are found: what is never kept is
/// never run. Values are told apart on two samples (the probes); the search
/// reads the kept ones on `first`, the first sample where the window is
/// defined, and checks whole programs on all samples (values distinct on the
/// probes are distinct on all samples, so nothing else is run).
fn components(screen: &Screen, first: usize) -> Vec<Component> {
    let g = screen.grammar;
    let leaf_count = screen.leaf_types.len();
    let probes: Vec<usize> = PROBES.iter().map(|&p| p.min(screen.inputs.len() - 1)).collect();
    // Sizes a second step can read: operands of instructions with the
    // root's size, and what swizzles make the root's size from.
    let root = screen.root_bits;
    let mut useful: Vec<u32> = vec![root, 2 * root, root / 2];
    for c in &g.candidates {
        if c.result.bits() == root && c.immediates.is_empty() {
            useful.extend(c.operands.iter().map(|(_, t)| t.bits()));
        }
    }
    // Every step worth running (useful size, cheaper than the window's
    // bound), with its cost, relevance, size and genericity.
    let mut steps: Vec<(Step, usize, usize, u32, bool, u32)> = Vec::new();
    let mut add = |step: Step, cost: usize, bits: u32, elem_bits: u32, generic: bool| {
        if useful.contains(&bits) && cost < screen.max_cost {
            let with_immediate = matches!(&step.op, StepOp::Instr { immediates, .. } if !immediates.is_empty());
            let relevance = distance(screen, elem_bits)
                + usize::from(!screen.value_bits.contains(&bits))
                + usize::from(with_immediate);
            steps.push((step, cost, relevance, bits, generic, elem_bits));
        }
    };
    for (ci, c) in g.candidates.iter().enumerate() {
        if !c.allowed_on(screen.limits.target) {
            continue;
        }
        // An immediate of few values (a lane, a small shift) is tried at
        // each value, ranked after the steps without immediates.
        let values: Vec<Vec<(String, u32)>> = match c.immediates.as_slice() {
            [] => vec![vec![]],
            [(_, name, _)] => match c.immediate_values() {
                Some((lo, hi)) if hi - lo < FEW_IMMEDIATES => {
                    (lo..=hi).filter_map(|v| u32::try_from(v).ok()).map(|v| vec![(name.clone(), v)]).collect()
                }
                _ => continue,
            },
            _ => continue,
        };
        for binding in assignments(&leaf_options(c, &screen.leaf_types), 0, screen.limits.bindings) {
            if c.mirrored(&binding) {
                continue;
            }
            for immediates in &values {
                let operands = binding.iter().map(|l| Source::Leaf(*l)).collect();
                let step = Step { op: StepOp::Instr { candidate: ci, immediates: immediates.clone() }, operands };
                add(step, c.cost, c.result.bits(), c.result.elem_bits, c.generic);
            }
        }
    }
    for (l, t) in screen.leaf_types.iter().enumerate().take(screen.variable) {
        for z in Swizzle::family(t.bits(), 1) {
            let (cost, bits, elem) = (z.cost(), z.result_bits(), z.elem_bits);
            add(Step { op: StepOp::Swizzle(z), operands: vec![Source::Leaf(l)] }, cost, bits, elem, true);
        }
        for m in (0..screen.variable).filter(|&m| m != l && screen.leaf_types[m].bits() == t.bits()) {
            for z in Swizzle::family(t.bits(), 2) {
                let (cost, bits, elem) = (z.cost(), z.result_bits(), z.elem_bits);
                let operands = vec![Source::Leaf(l), Source::Leaf(m)];
                add(Step { op: StepOp::Swizzle(z), operands }, cost, bits, elem, true);
            }
        }
    }
    steps.sort_by_key(|(_, cost, relevance, _, _, _)| (cost + relevance, *cost));
    // A value equal to a leaf adds nothing; a value of constants alone is a
    // constant, nothing to compute.
    let distinct = |found: Vec<Component>, seen: &mut std::collections::HashSet<(u32, Vec<BigUint>)>| {
        let mut kept = Vec::new();
        for c in found {
            let reads_input = c.reads.iter().any(|&l| l < screen.variable);
            if reads_input && seen.insert((c.bits, c.values.clone())) {
                kept.push(c);
            }
        }
        kept
    };
    let mut seen: std::collections::HashSet<(u32, Vec<BigUint>)> = (0..leaf_count)
        .map(|l| (screen.leaf_types[l].bits(), probes.iter().map(|&s| screen.inputs[s][l].clone()).collect()))
        .collect();
    let mut kept: Vec<Component> = Vec::new();
    for chunk in steps.chunks(CHUNK) {
        if kept.len() >= screen.limits.components || screen.expired() {
            break;
        }
        let found: Vec<Component> = chunk
            .par_iter()
            .filter_map(|(step, cost, relevance, bits, generic, elem_bits)| {
                let program = Program { steps: vec![step.clone()] };
                let values: Option<Vec<BigUint>> =
                    probes.iter().map(|&p| program.run_concrete(g, &screen.inputs[p])).collect();
                Some(Component {
                    reads: leaves_read(step),
                    step: step.clone(),
                    cost: *cost,
                    bits: *bits,
                    values: values?,
                    first: BigUint::default(),
                    relevance: *relevance,
                    elem_bits: *elem_bits,
                    generic: *generic,
                })
            })
            .collect();
        kept.extend(distinct(found, &mut seen));
    }
    kept.truncate(screen.limits.components);
    let kept: Vec<Component> = kept
        .into_par_iter()
        .filter_map(|mut c| {
            c.first = match probes.iter().position(|&p| p == first) {
                Some(k) => c.values[k].clone(),
                None => Program { steps: vec![c.step.clone()] }.run_concrete(g, &screen.inputs[first])?,
            };
            Some(c)
        })
        .collect();
    if std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some() {
        eprintln!("hydride: {} distinct one-step values kept", kept.len());
    }
    kept
}

/// How far an element size is from the window's: 0 if the window has
/// values of that element size, else 1.
fn distance(screen: &Screen, elem_bits: u32) -> usize {
    usize::from(!screen.elem_bits.contains(&elem_bits))
}

/// How far an instruction's result and operand element sizes are from the
/// window's (see [`distance`]).
fn type_distance(screen: &Screen, c: &super::grammar::Candidate) -> usize {
    distance(screen, c.result.elem_bits) + c.operands.iter().map(|(_, t)| distance(screen, t.elem_bits)).sum::<usize>()
}

/// Elements (of `elem_bits` ≤ 64 bits) of `value` at the positions given.
fn elements(value: &BigUint, elem_bits: u32, at: &mut dyn Iterator<Item = u32>) -> Vec<u64> {
    let mask = (BigUint::from(1u8) << elem_bits) - 1u8;
    at.map(|i| u64::try_from((value >> (i * elem_bits)) & &mask).unwrap_or(0)).collect()
}

/// Two-step programs that agree with the window on the samples.
pub fn two_steps(screen: &Screen) -> Vec<Program> {
    let g = screen.grammar;
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    // Values are screened on the first sample where the window is defined
    // (with none, nothing is to be computed).
    let Some(first) = screen.expected.iter().position(Option::is_some) else { return Vec::new() };
    let want = screen.expected[first].as_ref().expect("a defined sample");
    let parts = components(screen, first);
    if trace {
        eprintln!("hydride: {} one-step values after {:?}", parts.len(), screen.started.elapsed());
    }
    let leaf_count = screen.leaf_types.len();
    let covers = |reads: &[usize], binding_leaves: &[usize]| {
        (0..screen.variable).all(|l| reads.contains(&l) || binding_leaves.contains(&l))
    };
    // Inputs a value reading `reads` leaves for the other operands.
    let unread = |reads: &[usize]| (0..screen.variable).filter(|l| !reads.contains(l)).count();
    // Second step an instruction without immediates: each operand a leaf of
    // its size or the component (index `leaf_count` in a binding), the
    // component at least once. Pairs are tried most relevant first (element
    // sizes the window has, cheap), up to the evaluation budget, so the
    // outcome does not depend on the machine's speed.
    // Bindings depend on a component only through its size: each
    // candidate's are enumerated once per size (with the leaves each
    // reads), and a pairing names one by its table and index.
    let mut tables: Vec<Vec<(Vec<usize>, Vec<usize>)>> = Vec::new();
    let mut work: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    for (ci, c) in g.candidates.iter().enumerate() {
        if c.result.bits() != screen.root_bits || !c.immediates.is_empty() || !c.allowed_on(screen.limits.target) {
            continue;
        }
        let c_score = type_distance(screen, c);
        let affordable = |p: &Component| c.cost + p.cost < screen.max_cost;
        // The component takes one operand at least; the others must be able
        // to read every input it does not.
        let can_cover = |p: &Component| unread(&p.reads) < c.operands.len();
        // This candidate's tables, by component size.
        let mut sized: Vec<(u32, usize)> = Vec::new();
        for (pi, part) in
            parts.iter().enumerate().filter(|(_, p)| !(c.generic && p.generic) && affordable(p) && can_cover(p))
        {
            let table = match sized.iter().find(|(bits, _)| *bits == part.bits) {
                Some(&(_, t)) => t,
                None => {
                    // The component first, so that bindings reading it come before the cut at `bindings`.
                    let mut options = leaf_options(c, &screen.leaf_types);
                    for (k, (_, t)) in c.operands.iter().enumerate() {
                        if t.bits() == part.bits {
                            options[k].insert(0, leaf_count);
                        }
                    }
                    let bindings = assignments(&options, 0, screen.limits.bindings)
                        .into_iter()
                        .filter(|b| !c.mirrored(b) && b.contains(&leaf_count))
                        .map(|b| {
                            let used = b.iter().copied().filter(|&l| l < leaf_count).collect();
                            (b, used)
                        })
                        .collect();
                    tables.push(bindings);
                    sized.push((part.bits, tables.len() - 1));
                    tables.len() - 1
                }
            };
            let score = c_score + part.relevance + c.cost + part.cost;
            for (k, (_, used)) in tables[table].iter().enumerate() {
                if covers(&part.reads, used) {
                    work.push((score, ci, pi, table, k));
                }
            }
        }
    }
    // The cheapest `evaluations` pairings, in order (the order is total:
    // no two pairings are equal).
    let order = |a: &(usize, usize, usize, usize, usize), b: &(usize, usize, usize, usize, usize)| {
        (a.0, a.1, a.2, &tables[a.3][a.4].0).cmp(&(b.0, b.1, b.2, &tables[b.3][b.4].0))
    };
    let (total, budget) = (work.len(), screen.limits.evaluations);
    if total > budget && budget > 0 {
        work.select_nth_unstable_by(budget, order);
    }
    work.truncate(budget);
    work.sort_unstable_by(order);
    if trace {
        eprintln!("hydride: second step: {} of {total} pairings within the budget", work.len());
    }
    let mut out: Vec<Program> = work
        .par_iter()
        .enumerate()
        .filter_map(|(rank, &(_, ci, pi, table, k))| {
            let (c, part, binding) = (&g.candidates[ci], &parts[pi], &tables[table][k].0);
            let sources =
                binding.iter().map(|&l| if l == leaf_count { Source::Step(0) } else { Source::Leaf(l) }).collect();
            let program = Program {
                steps: vec![
                    part.step.clone(),
                    Step { op: StepOp::Instr { candidate: ci, immediates: vec![] }, operands: sources },
                ],
            };
            // The first defined sample rejects most pairings; then all of them.
            let operands: Vec<BigUint> = binding
                .iter()
                .map(|&l| if l == leaf_count { part.first.clone() } else { screen.inputs[first][l].clone() })
                .collect();
            let args = super::program::arguments(c, &operands, &[], &|v, _| BigUint::from(v));
            let found = g.evaluations.may_give(ci, c, args, want) && screen.agrees(&program);
            if found && trace {
                eprintln!("hydride: second step: {} agrees at pairing {rank}", program.describe(g));
            }
            found.then_some(program)
        })
        .collect();
    // Second step a swizzle of one component (checked on the component's
    // values first, without running its instruction again).
    for a in parts.iter().filter(|p| !p.generic) {
        for z in Swizzle::family(a.bits, 1)
            .into_iter()
            .filter(|z| a.cost + z.cost() < screen.max_cost && z.result_bits() == screen.root_bits)
        {
            let plausible = &z.apply(&mut dialectgen::eval::Concrete, std::slice::from_ref(&a.first)) == want;
            if plausible && covers(&a.reads, &[]) {
                let program = Program {
                    steps: vec![a.step.clone(), Step { op: StepOp::Swizzle(z), operands: vec![Source::Step(0)] }],
                };
                if screen.agrees(&program) {
                    out.push(program);
                }
            }
        }
    }
    // Second step a swizzle of two values, each a component or a leaf,
    // together reading every leaf: goal-directed. On the first defined
    // sample the wanted result fixes the elements each operand must have
    // where the swizzle reads it; values are looked up by those elements,
    // and each pair found is checked on all samples.
    // (bits, value on the first sample, leaves read, the step computing it or the leaf)
    let mut pieces: Vec<(u32, &BigUint, Vec<usize>, Result<&Step, usize>, bool)> =
        parts.iter().map(|p| (p.bits, &p.first, p.reads.clone(), Ok(&p.step), p.generic)).collect();
    for l in 0..screen.variable {
        pieces.push((screen.leaf_types[l].bits(), &screen.inputs[first][l], vec![l], Err(l), true));
    }
    let mut operand_bits: Vec<u32> = pieces.iter().map(|p| p.0).collect();
    operand_bits.sort_unstable();
    operand_bits.dedup();
    for bits in operand_bits {
        for z in Swizzle::family(bits, 2).into_iter().filter(|z| z.result_bits() == screen.root_bits) {
            let n = bits / z.elem_bits;
            let reads = |k: u32| -> Vec<(u32, u32)> {
                z.mask.iter().enumerate().filter(|(_, m)| **m / n == k).map(|(j, m)| (j as u32, m % n)).collect()
            };
            let (reads0, reads1) = (reads(0), reads(1));
            let key = |value: &BigUint, at: &mut dyn Iterator<Item = u32>| elements(value, z.elem_bits, at);
            let mut by_elements: HashMap<Vec<u64>, Vec<usize>> = HashMap::new();
            for (i, p) in pieces.iter().enumerate().filter(|(_, p)| p.0 == bits) {
                by_elements.entry(key(p.1, &mut reads1.iter().map(|r| r.1))).or_default().push(i);
            }
            let Some(seconds) = by_elements.get(&key(want, &mut reads1.iter().map(|r| r.0))) else { continue };
            let wanted0 = key(want, &mut reads0.iter().map(|r| r.0));
            for a in pieces.iter().filter(|p| p.0 == bits && key(p.1, &mut reads0.iter().map(|r| r.1)) == wanted0) {
                for b in seconds.iter().map(|&i| &pieces[i]) {
                    let all: Vec<usize> = a.2.iter().chain(&b.2).copied().collect();
                    if !covers(&all, &[]) || (a.4 && b.4) {
                        continue;
                    }
                    let mut steps = Vec::new();
                    let mut source = |piece: &Result<&Step, usize>| match piece {
                        Ok(step) => {
                            steps.push((*step).clone());
                            Source::Step(steps.len() - 1)
                        }
                        Err(l) => Source::Leaf(*l),
                    };
                    let operands = vec![source(&a.3), source(&b.3)];
                    steps.push(Step { op: StepOp::Swizzle(z.clone()), operands });
                    let program = Program { steps };
                    if screen.agrees(&program) {
                        out.push(program);
                    }
                }
            }
        }
    }
    // Nothing in two steps: three.
    if out.is_empty() && !screen.expired() {
        out = over_two_values(screen, &parts, first, want);
    }
    out
}

/// One-step values of an operand's type a three-step program tries for
/// that operand, the most relevant and cheapest first.
const PER_OPERAND: usize = 16;

/// The part of `Limits::evaluations` three-step pairings get: each
/// evaluates a full-width instruction, and most windows that reach them
/// have no such program (sobel5x5's cold compile: 3.0 s without them, 3.9 s
/// with the whole budget).
const THREE_STEP_SHARE: usize = 4;

/// Three-step programs: an instruction without immediates over two
/// distinct one-step values, each of the type of an operand it is bound to
/// (the other operands leaves), as `vpmaddwd` of two widenings. Tried when
/// no two-step program agrees; at most a [`THREE_STEP_SHARE`] part of
/// `Limits::evaluations` pairings, most relevant first, as for two steps.
fn over_two_values(screen: &Screen, parts: &[Component], first: usize, want: &BigUint) -> Vec<Program> {
    let g = screen.grammar;
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    let leaf_count = screen.leaf_types.len();
    let covers = |a: &Component, b: &Component, leaves: &[usize]| {
        (0..screen.variable).all(|l| a.reads.contains(&l) || b.reads.contains(&l) || leaves.contains(&l))
    };
    // In a binding, `leaf_count` stands for the first value, `leaf_count + 1` for the second.
    let mut work: Vec<(usize, usize, usize, usize, Vec<usize>)> = Vec::new();
    for (ci, c) in g.candidates.iter().enumerate() {
        if screen.expired() {
            break;
        }
        if c.operands.len() < 2
            || c.result.bits() != screen.root_bits
            || !c.immediates.is_empty()
            || !c.allowed_on(screen.limits.target)
        {
            continue;
        }
        let c_score = type_distance(screen, c);
        let leaf_only = leaf_options(c, &screen.leaf_types);
        // Values of some operand's type, at most `PER_OPERAND` per type, in the order found.
        let mut typed: Vec<usize> = Vec::new();
        for (_, t) in &c.operands {
            let of_type = |p: &&Component| p.bits == t.bits() && p.elem_bits == t.elem_bits;
            for (pi, _) in parts.iter().enumerate().filter(|(_, p)| of_type(p)).take(PER_OPERAND) {
                if !typed.contains(&pi) {
                    typed.push(pi);
                }
            }
        }
        typed.sort_unstable();
        for (k, &ai) in typed.iter().enumerate() {
            for &bi in &typed[k + 1..] {
                let (a, b) = (&parts[ai], &parts[bi]);
                if (c.generic && a.generic && b.generic) || c.cost + a.cost + b.cost >= screen.max_cost {
                    continue;
                }
                // The other operands must be able to read every input neither value does.
                let unread = (0..screen.variable).filter(|l| !a.reads.contains(l) && !b.reads.contains(l)).count();
                if unread + 2 > c.operands.len() {
                    continue;
                }
                // Each value at an operand of its size, the others leaves.
                let size = |k: usize| c.operands[k].1.bits();
                let operands = c.operands.len();
                for (i, j) in (0..operands).flat_map(|i| (0..operands).map(move |j| (i, j))) {
                    if i == j || size(i) != a.bits || size(j) != b.bits {
                        continue;
                    }
                    let mut options = leaf_only.clone();
                    (options[i], options[j]) = (vec![leaf_count], vec![leaf_count + 1]);
                    for binding in assignments(&options, 0, screen.limits.bindings) {
                        if c.mirrored(&binding) {
                            continue;
                        }
                        let leaves: Vec<usize> = binding.iter().copied().filter(|&l| l < leaf_count).collect();
                        if covers(a, b, &leaves) {
                            let score = c_score + a.relevance + b.relevance + c.cost + a.cost + b.cost;
                            work.push((score, ci, ai, bi, binding));
                        }
                    }
                }
            }
        }
    }
    let (total, budget) = (work.len(), screen.limits.evaluations / THREE_STEP_SHARE);
    if total > budget && budget > 0 {
        work.select_nth_unstable(budget);
    }
    work.truncate(budget);
    work.sort();
    if trace {
        eprintln!("hydride: three steps: {} of {total} pairings within the budget", work.len());
    }
    work.par_iter()
        .filter_map(|(_, ci, ai, bi, binding)| {
            let (c, a, b) = (&g.candidates[*ci], &parts[*ai], &parts[*bi]);
            let value = |l: usize| match l.checked_sub(leaf_count) {
                Some(0) => a.first.clone(),
                Some(_) => b.first.clone(),
                None => screen.inputs[first][l].clone(),
            };
            let operands: Vec<BigUint> = binding.iter().map(|&l| value(l)).collect();
            let args = super::program::arguments(c, &operands, &[], &|v, _| BigUint::from(v));
            if !g.evaluations.may_give(*ci, c, args, want) {
                return None;
            }
            let source = |l: usize| match l.checked_sub(leaf_count) {
                Some(k) => Source::Step(k),
                None => Source::Leaf(l),
            };
            let operands = binding.iter().map(|&l| source(l)).collect();
            let last = Step { op: StepOp::Instr { candidate: *ci, immediates: vec![] }, operands };
            let program = Program { steps: vec![a.step.clone(), b.step.clone(), last] };
            screen.agrees(&program).then_some(program)
        })
        .collect()
}
