//! One-step values: every value one step (an instruction without
//! immediates or at each value of an immediate of few values, or a
//! swizzle) computes from a window's leaves, told apart on probe samples
//! and kept at its cheapest; what two- and three-step programs are built
//! from.

use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::screen::{assignments, leaf_options, Screen, FEW_IMMEDIATES};
use num_bigint::BigUint;
use rayon::prelude::*;

/// A value computed by one step from leaves, on every sample.
pub(super) struct Component {
    pub(super) step: Step,
    pub(super) cost: usize,
    pub(super) bits: u32,
    /// Its values on the probes.
    pub(super) values: Vec<BigUint>,
    /// Its value on the first sample where the window is defined.
    pub(super) first: BigUint,
    /// Leaves it reads.
    pub(super) reads: Vec<usize>,
    /// How far its sizes are from the window's values' (0 to 2).
    pub(super) relevance: usize,
    /// Its step is generic IR or a swizzle, not a target intrinsic.
    pub(super) generic: bool,
    /// Its element size.
    pub(super) elem_bits: u32,
}

/// The leaves a step reads, each once, in order.
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

/// A step worth running, with what orders it: its cost, relevance, size,
/// genericity and element size.
type RankedStep = (Step, usize, usize, u32, bool, u32);

/// Every one-step value over the leaves, deduplicated, cheapest first, at
/// most `Limits::components` of them. Steps are ordered by cost and
/// relevance before any is run and are evaluated in that order, a chunk at a
/// time, until that many distinct values are found: what is never kept is
/// never run. Values are told apart on two samples (the probes); the search
/// reads the kept ones on `first`, the first sample where the window is
/// defined, and checks whole programs on all samples (values distinct on the
/// probes are distinct on all samples, so nothing else is run).
pub(super) fn components(screen: &Screen, first: usize) -> Vec<Component> {
    let probes: Vec<usize> = PROBES.iter().map(|&p| p.min(screen.inputs.len() - 1)).collect();
    let steps = ranked_steps(screen);
    let mut kept = distinct_values(screen, &steps, &probes);
    kept.truncate(screen.limits.components);
    let kept = with_first_values(screen, kept, &probes, first);
    if std::env::var_os("HYDRIDE_SYNTH_TRACE").is_some() {
        eprintln!("hydride: {} distinct one-step values kept", kept.len());
    }
    kept
}

/// Sizes a second step can read: operands of instructions with the
/// root's size, and what swizzles make the root's size from.
fn useful_sizes(screen: &Screen) -> Vec<u32> {
    let root = screen.root_bits;
    let mut useful: Vec<u32> = vec![root, 2 * root, root / 2];
    for c in &screen.grammar.candidates {
        if c.result.bits() == root && c.immediates.is_empty() {
            useful.extend(c.operands.iter().map(|(_, t)| t.bits()));
        }
    }
    useful
}

/// Every step worth running (useful size, cheaper than the window's
/// bound), with its cost, relevance, size and genericity, most relevant
/// and cheapest first.
fn ranked_steps(screen: &Screen) -> Vec<RankedStep> {
    let useful = useful_sizes(screen);
    let mut steps: Vec<RankedStep> = Vec::new();
    let mut add = |step: Step, cost: usize, bits: u32, elem_bits: u32, generic: bool| {
        if useful.contains(&bits) && cost < screen.max_cost {
            let with_immediate = matches!(&step.op, StepOp::Instr { immediates, .. } if !immediates.is_empty());
            let relevance = distance(screen, elem_bits)
                + usize::from(!screen.value_bits.contains(&bits))
                + usize::from(with_immediate);
            steps.push((step, cost, relevance, bits, generic, elem_bits));
        }
    };
    instruction_steps(screen, &mut add);
    swizzle_steps(screen, &mut add);
    steps.sort_by_key(|(_, cost, relevance, _, _, _)| (cost + relevance, *cost));
    steps
}

/// Each instruction the target allows over each binding of leaves to its
/// operands, passed to `add` with its cost, size, element size and
/// genericity.
fn instruction_steps(screen: &Screen, add: &mut dyn FnMut(Step, usize, u32, u32, bool)) {
    for (ci, c) in screen.grammar.candidates.iter().enumerate() {
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
}

/// Each swizzle of one input, and of two inputs of one size, passed to
/// `add` as in [`instruction_steps`].
fn swizzle_steps(screen: &Screen, add: &mut dyn FnMut(Step, usize, u32, u32, bool)) {
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
}

/// The values of `steps` on the probes, run a chunk at a time in order
/// until `Limits::components` distinct ones are kept (or time is up).
fn distinct_values(screen: &Screen, steps: &[RankedStep], probes: &[usize]) -> Vec<Component> {
    let g = screen.grammar;
    let leaf_count = screen.leaf_types.len();
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
    kept
}

/// The components with their values on sample `first` (read from the
/// probes when it is one); those that cannot run on it are left out.
fn with_first_values(screen: &Screen, kept: Vec<Component>, probes: &[usize], first: usize) -> Vec<Component> {
    let g = screen.grammar;
    kept.into_par_iter()
        .filter_map(|mut c| {
            c.first = match probes.iter().position(|&p| p == first) {
                Some(k) => c.values[k].clone(),
                None => Program { steps: vec![c.step.clone()] }.run_concrete(g, &screen.inputs[first])?,
            };
            Some(c)
        })
        .collect()
}

/// How far an element size is from the window's: 0 if the window has
/// values of that element size, else 1.
pub(super) fn distance(screen: &Screen, elem_bits: u32) -> usize {
    usize::from(!screen.elem_bits.contains(&elem_bits))
}
