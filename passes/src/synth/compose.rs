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

use super::one_step::{components, distance, Component};
use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::screen::{assignments, leaf_options, Screen};
use num_bigint::BigUint;
use rayon::prelude::*;
use std::collections::HashMap;

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

/// Bindings of one instruction's operands with a component of one size:
/// each binding (`leaf_count` standing for the component) with the leaves
/// it reads.
type BindingTable = Vec<(Vec<usize>, Vec<usize>)>;

/// A second-step pairing: its score, the instruction, the component, and
/// its binding as a table and an index in it.
type Pairing = (usize, usize, usize, usize, usize);

/// Two-step programs that agree with the window on the samples.
pub fn two_steps(screen: &Screen) -> Vec<Program> {
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    // Values are screened on the first sample where the window is defined
    // (with none, nothing is to be computed).
    let Some(first) = screen.expected.iter().position(Option::is_some) else { return Vec::new() };
    let want = screen.expected[first].as_ref().expect("a defined sample");
    let parts = components(screen, first);
    if trace {
        eprintln!("hydride: {} one-step values after {:?}", parts.len(), screen.started.elapsed());
    }
    let mut out = instructions_over_one_value(screen, &parts, first, want, trace);
    out.extend(swizzles_of_one_value(screen, &parts, want));
    out.extend(swizzles_of_two_values(screen, &parts, first, want));
    // Nothing in two steps: three.
    if out.is_empty() && !screen.expired() {
        out = over_two_values(screen, &parts, first, want);
    }
    out
}

/// Whether values reading `reads` and a binding reading `binding_leaves`
/// together read every input.
fn covers(screen: &Screen, reads: &[usize], binding_leaves: &[usize]) -> bool {
    (0..screen.variable).all(|l| reads.contains(&l) || binding_leaves.contains(&l))
}

/// Second step an instruction without immediates: each operand a leaf of
/// its size or the component (index `leaf_count` in a binding), the
/// component at least once. Pairs are tried most relevant first (element
/// sizes the window has, cheap), up to the evaluation budget, so the
/// outcome does not depend on the machine's speed.
fn instructions_over_one_value(
    screen: &Screen,
    parts: &[Component],
    first: usize,
    want: &BigUint,
    trace: bool,
) -> Vec<Program> {
    let g = screen.grammar;
    let leaf_count = screen.leaf_types.len();
    let (tables, work) = pairings(screen, parts);
    let work = within_budget(screen, &tables, work, trace);
    work.par_iter()
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
        .collect()
}

/// Every pairing of an instruction of the root's size with a component
/// and a binding that together read every input, with the binding tables
/// they name. Bindings depend on a component only through its size: each
/// candidate's are enumerated once per size (with the leaves each
/// reads), and a pairing names one by its table and index.
fn pairings(screen: &Screen, parts: &[Component]) -> (Vec<BindingTable>, Vec<Pairing>) {
    // Inputs a value reading `reads` leaves for the other operands.
    let unread = |reads: &[usize]| (0..screen.variable).filter(|l| !reads.contains(l)).count();
    let mut tables: Vec<BindingTable> = Vec::new();
    let mut work: Vec<Pairing> = Vec::new();
    for (ci, c) in screen.grammar.candidates.iter().enumerate() {
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
                    tables.push(binding_table(screen, c, part.bits));
                    sized.push((part.bits, tables.len() - 1));
                    tables.len() - 1
                }
            };
            let score = c_score + part.relevance + c.cost + part.cost;
            for (k, (_, used)) in tables[table].iter().enumerate() {
                if covers(screen, &part.reads, used) {
                    work.push((score, ci, pi, table, k));
                }
            }
        }
    }
    (tables, work)
}

/// The bindings of `c`'s operands that read a component of `bits` bits
/// at least once, each with the leaves it reads.
fn binding_table(screen: &Screen, c: &super::grammar::Candidate, bits: u32) -> BindingTable {
    let leaf_count = screen.leaf_types.len();
    // The component first, so that bindings reading it come before the cut at `bindings`.
    let mut options = leaf_options(c, &screen.leaf_types);
    for (k, (_, t)) in c.operands.iter().enumerate() {
        if t.bits() == bits {
            options[k].insert(0, leaf_count);
        }
    }
    assignments(&options, 0, screen.limits.bindings)
        .into_iter()
        .filter(|b| !c.mirrored(b) && b.contains(&leaf_count))
        .map(|b| {
            let used = b.iter().copied().filter(|&l| l < leaf_count).collect();
            (b, used)
        })
        .collect()
}

/// The cheapest `evaluations` pairings, in order (the order is total:
/// no two pairings are equal).
fn within_budget(screen: &Screen, tables: &[BindingTable], mut work: Vec<Pairing>, trace: bool) -> Vec<Pairing> {
    let order =
        |a: &Pairing, b: &Pairing| (a.0, a.1, a.2, &tables[a.3][a.4].0).cmp(&(b.0, b.1, b.2, &tables[b.3][b.4].0));
    let (total, budget) = (work.len(), screen.limits.evaluations);
    if total > budget && budget > 0 {
        work.select_nth_unstable_by(budget, order);
    }
    work.truncate(budget);
    work.sort_unstable_by(order);
    if trace {
        eprintln!("hydride: second step: {} of {total} pairings within the budget", work.len());
    }
    work
}

/// Second step a swizzle of one component (checked on the component's
/// values first, without running its instruction again).
fn swizzles_of_one_value(screen: &Screen, parts: &[Component], want: &BigUint) -> Vec<Program> {
    let mut out = Vec::new();
    for a in parts.iter().filter(|p| !p.generic) {
        for z in Swizzle::family(a.bits, 1)
            .into_iter()
            .filter(|z| a.cost + z.cost() < screen.max_cost && z.result_bits() == screen.root_bits)
        {
            let plausible = &z.apply(&mut dialectgen::eval::Concrete, std::slice::from_ref(&a.first)) == want;
            if plausible && covers(screen, &a.reads, &[]) {
                let program = Program {
                    steps: vec![a.step.clone(), Step { op: StepOp::Swizzle(z), operands: vec![Source::Step(0)] }],
                };
                if screen.agrees(&program) {
                    out.push(program);
                }
            }
        }
    }
    out
}

/// A value a two-operand swizzle may read: its size, its value on the
/// first sample, the leaves it reads, the step computing it (or the leaf
/// it is), and whether it is generic.
type SwizzleOperand<'a> = (u32, &'a BigUint, Vec<usize>, Result<&'a Step, usize>, bool);

/// Second step a swizzle of two values, each a component or a leaf,
/// together reading every leaf: goal-directed. On the first defined
/// sample the wanted result fixes the elements each operand must have
/// where the swizzle reads it; values are looked up by those elements,
/// and each pair found is checked on all samples.
fn swizzles_of_two_values(screen: &Screen, parts: &[Component], first: usize, want: &BigUint) -> Vec<Program> {
    let mut pieces: Vec<SwizzleOperand> =
        parts.iter().map(|p| (p.bits, &p.first, p.reads.clone(), Ok(&p.step), p.generic)).collect();
    for l in 0..screen.variable {
        pieces.push((screen.leaf_types[l].bits(), &screen.inputs[first][l], vec![l], Err(l), true));
    }
    let mut operand_bits: Vec<u32> = pieces.iter().map(|p| p.0).collect();
    operand_bits.sort_unstable();
    operand_bits.dedup();
    let mut out = Vec::new();
    for bits in operand_bits {
        for z in Swizzle::family(bits, 2).into_iter().filter(|z| z.result_bits() == screen.root_bits) {
            out.extend(swizzle_pairs(screen, &pieces, bits, &z, want));
        }
    }
    out
}

/// The programs applying two-operand swizzle `z` to a pair of `pieces` of
/// `bits` bits whose elements give `want` where `z` reads them, that read
/// every leaf and agree on every sample.
fn swizzle_pairs(screen: &Screen, pieces: &[SwizzleOperand], bits: u32, z: &Swizzle, want: &BigUint) -> Vec<Program> {
    let mut out = Vec::new();
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
    let Some(seconds) = by_elements.get(&key(want, &mut reads1.iter().map(|r| r.0))) else { return out };
    let wanted0 = key(want, &mut reads0.iter().map(|r| r.0));
    for a in pieces.iter().filter(|p| p.0 == bits && key(p.1, &mut reads0.iter().map(|r| r.1)) == wanted0) {
        for b in seconds.iter().map(|&i| &pieces[i]) {
            let all: Vec<usize> = a.2.iter().chain(&b.2).copied().collect();
            if !covers(screen, &all, &[]) || (a.4 && b.4) {
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

/// A three-step pairing: its score, the instruction, the two components,
/// and the binding of the instruction's operands (`leaf_count` standing
/// for the first component, `leaf_count + 1` for the second).
type ThreeStep = (usize, usize, usize, usize, Vec<usize>);

/// Three-step programs: an instruction without immediates over two
/// distinct one-step values, each of the type of an operand it is bound to
/// (the other operands leaves), as `vpmaddwd` of two widenings. Tried when
/// no two-step program agrees; at most a [`THREE_STEP_SHARE`] part of
/// `Limits::evaluations` pairings, most relevant first, as for two steps.
fn over_two_values(screen: &Screen, parts: &[Component], first: usize, want: &BigUint) -> Vec<Program> {
    let g = screen.grammar;
    let trace = std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some();
    let leaf_count = screen.leaf_types.len();
    let mut work = three_step_pairings(screen, parts);
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

/// Every pairing of an instruction of two operands or more, of the root's
/// size, with two distinct components of its operands' types and a
/// binding of the rest that together read every input (until time is up).
fn three_step_pairings(screen: &Screen, parts: &[Component]) -> Vec<ThreeStep> {
    let mut work: Vec<ThreeStep> = Vec::new();
    for (ci, c) in screen.grammar.candidates.iter().enumerate() {
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
        let typed = typed_values(parts, c);
        for (k, &ai) in typed.iter().enumerate() {
            for &bi in &typed[k + 1..] {
                pairings_over(screen, parts, ci, (ai, bi), &mut work);
            }
        }
    }
    work
}

/// Values of some operand's type of `c`, at most `PER_OPERAND` per type,
/// in the order found, as indices in `parts` in increasing order.
fn typed_values(parts: &[Component], c: &super::grammar::Candidate) -> Vec<usize> {
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
    typed
}

/// The pairings of instruction `ci` with components `ai` and `bi`, pushed
/// onto `work`: each value at an operand of its size, the others leaves.
fn pairings_over(screen: &Screen, parts: &[Component], ci: usize, (ai, bi): (usize, usize), work: &mut Vec<ThreeStep>) {
    let c = &screen.grammar.candidates[ci];
    let leaf_count = screen.leaf_types.len();
    let (a, b) = (&parts[ai], &parts[bi]);
    if (c.generic && a.generic && b.generic) || c.cost + a.cost + b.cost >= screen.max_cost {
        return;
    }
    // The other operands must be able to read every input neither value does.
    let unread = (0..screen.variable).filter(|l| !a.reads.contains(l) && !b.reads.contains(l)).count();
    if unread + 2 > c.operands.len() {
        return;
    }
    let covers = |leaves: &[usize]| {
        (0..screen.variable).all(|l| a.reads.contains(&l) || b.reads.contains(&l) || leaves.contains(&l))
    };
    let c_score = type_distance(screen, c);
    let leaf_only = leaf_options(c, &screen.leaf_types);
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
            if covers(&leaves) {
                let score = c_score + a.relevance + b.relevance + c.cost + a.cost + b.cost;
                work.push((score, ci, ai, bi, binding));
            }
        }
    }
}
