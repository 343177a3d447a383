//! Screening a window's candidates on concrete inputs: the window evaluated
//! on sample leaves, the bindings of operands and immediates a candidate may
//! take, and [`Screen`], what the search knows of a window while it
//! screens (see [`super::search`]).

use super::block::{BlockOp, Dataflow, Window};
use super::grammar::arguments;
use super::grammar::{Candidate, Grammar};
use super::limits::Limits;
use super::program::Program;
use super::semantics::{SemaError, Val};
use super::types::Ty;
use dialectgen::eval::domain::Domain;
use dialectgen::eval::smt::Smt;
use dialectgen::eval::Concrete;
use dialectgen::validate::cases::{random_bits, Rng};
use num_bigint::BigUint;
use std::collections::HashMap;
use z3::ast::BV;

/// Evaluates the window with the leaves given (in `Window::leaves` order).
pub fn eval_window<D: Domain>(
    dom: &mut D,
    flow: &Dataflow,
    window: &Window,
    leaves: &[D::Bv],
) -> Result<(Val<D::Bv>, Vec<D::Bv>), SemaError> {
    eval_window_with(dom, flow, window, leaves, false)
}

/// [`eval_window`], with `wide` every op at the width it is written at
/// (see `Evaluator::wide`).
pub fn eval_window_with<D: Domain>(
    dom: &mut D,
    flow: &Dataflow,
    window: &Window,
    leaves: &[D::Bv],
    wide: bool,
) -> Result<(Val<D::Bv>, Vec<D::Bv>), SemaError> {
    let mut env: HashMap<usize, Val<D::Bv>> = HashMap::new();
    for (v, bits) in window.leaves.iter().zip(leaves) {
        let ty = flow.type_of(*v).ok_or_else(|| SemaError::Unsupported(format!("the type of value {v}")))?;
        // A constant lifted to a leaf is still a constant: ops of constants alone fold.
        let constant = flow.constant(*v).is_some();
        env.insert(*v, Val { constant, ..Val::new(bits.clone(), ty) });
    }
    let mut ev = if wide { super::semantics::Evaluator::wide(dom) } else { super::semantics::Evaluator::new(dom) };
    for &pos in &window.ops {
        let op = &flow.ops[pos];
        let args: Vec<Val<D::Bv>> = op
            .operands
            .iter()
            .map(|v| env.get(v).cloned().ok_or_else(|| SemaError::Unsupported(format!("operand {v} of {}", op.name))))
            .collect::<Result<_, _>>()?;
        // max(x, y) - min(x, y) is the absolute difference of x and y.
        let results = match absolute_difference(flow, window, op) {
            Some((x, y, signed)) => {
                let (x, y) = (env.get(&x), env.get(&y));
                let (Some(x), Some(y)) = (x, y) else { return Err(SemaError::Unsupported("an operand".into())) };
                vec![ev.absolute_difference(x, y, signed)]
            }
            None => ev.eval(op, &args)?,
        };
        for (v, r) in op.results.iter().zip(results) {
            env.insert(*v, r);
        }
    }
    // The root's result: its only one, or the one the window's consumer reads.
    let root = &flow.ops[window.root];
    let value = match root.results.as_slice() {
        [only] => *only,
        _ => {
            return Err(SemaError::Unsupported(format!(
                "a window ending in `{}` with {} results",
                root.name,
                root.results.len()
            )))
        }
    };
    let root = env.remove(&value).ok_or_else(|| SemaError::Unsupported("an empty window".into()))?;
    Ok((root, ev.defined))
}

/// If `op` subtracts the minimum of two values of the window from their
/// maximum (compared alike, both computed in the window): the two values
/// and whether the comparison is signed.
fn absolute_difference(flow: &Dataflow, window: &Window, op: &BlockOp) -> Option<(usize, usize, bool)> {
    if op.name != "arith.subi" || op.operands.len() != 2 {
        return None;
    }
    let def = |v: usize| window.ops.iter().map(|&p| &flow.ops[p]).find(|o| o.results.contains(&v));
    let (max, min) = (def(op.operands[0])?, def(op.operands[1])?);
    let signed = match (max.name.as_str(), min.name.as_str()) {
        ("arith.maxui", "arith.minui") => false,
        ("arith.maxsi", "arith.minsi") => true,
        _ => return None,
    };
    let (a, b) = (&max.operands, &min.operands);
    let same = a.len() == 2 && b.len() == 2 && ((a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]));
    same.then(|| (a[0], a[1], signed))
}

/// Sample inputs: pseudo-random bits first (they tell most candidates
/// apart at once), then two of small numbers (every element below twice
/// its width; the whole value so, the rest zeros): a count a value is
/// shifted by, or a lane it selects, is in range there, where random bits
/// put it out of range on nearly every sample; one of random magnitudes
/// (each element's bits above a random length cleared: a value shifted
/// right and saturated that random bits always saturate); then zeros, all
/// ones, and every element at its signed maximum or minimum (saturation
/// and overflow show there).
pub(super) fn samples(types: &[Ty], count: usize) -> Vec<Vec<BigUint>> {
    samples_seeded(types, count, 0x9e37_79b9_7f4a_7c15)
}

/// A random sample's value for a leaf depends on the seed, the sample's
/// index, the leaf's position and its type only, not on the other leaves, so
/// windows that share leaves of a type share samples, and the memo of
/// evaluations ([`super::evaluations`]) answers for all of them.
fn samples_seeded(types: &[Ty], count: usize, seed: u64) -> Vec<Vec<BigUint>> {
    let random = |k: usize, l: usize, t: &Ty| {
        let stream = ((k as u64) << 32 | l as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        random_bits(&mut Rng::new(seed ^ stream), t.bits())
    };
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
    // Small numbers: random bits cut below twice the element's width.
    let small = |k: usize, l: usize, t: &Ty, whole: bool| {
        let cut = |x: BigUint| x % BigUint::from(2 * t.elem_bits);
        let bits = random(k, l, t);
        let mask = (BigUint::from(1u8) << t.elem_bits) - 1u8;
        if whole {
            return cut(bits & mask);
        }
        (0..t.lanes())
            .fold(BigUint::from(0u8), |acc, i| acc | (cut((&bits >> (i * t.elem_bits)) & &mask) << (i * t.elem_bits)))
    };
    // Random magnitudes: each element's bits above a random length cleared.
    let magnitudes = |k: usize, l: usize, t: &Ty| {
        let bits = random(k, l, t);
        let mut lengths = Rng::new(seed ^ ((k as u64) << 40) ^ (l as u64));
        (0..t.lanes()).fold(BigUint::from(0u8), |acc, i| {
            let keep = 1 + lengths.below(u64::from(t.elem_bits)) as u32;
            let element = (&bits >> (i * t.elem_bits)) & ((BigUint::from(1u8) << keep) - 1u8);
            acc | (element << (i * t.elem_bits))
        })
    };
    let randoms = count.saturating_sub(4);
    (0..count + 3)
        .map(|k| match k.checked_sub(randoms) {
            Some(s @ 0..=1) => types.iter().enumerate().map(|(l, t)| small(k, l, t, s == 1)).collect(),
            Some(2) => types.iter().enumerate().map(|(l, t)| magnitudes(k, l, t)).collect(),
            Some(e) => types.iter().map(|t| edge(e - 3, t)).collect(),
            None => types.iter().enumerate().map(|(l, t)| random(k, l, t)).collect(),
        })
        .collect()
}

/// Operand bindings: each operand to one of `options[k]`; with `cover`,
/// every leaf `0..cover` used; at most `limit`.
pub fn assignments(options: &[Vec<usize>], cover: usize, limit: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn go(options: &[Vec<usize>], cover: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        if current.len() == options.len() {
            if (0..cover).all(|l| current.contains(&l)) {
                out.push(current.clone());
            }
            return;
        }
        for &l in &options[current.len()] {
            current.push(l);
            go(options, cover, current, out, limit);
            current.pop();
        }
    }
    go(options, cover, &mut current, &mut out, limit);
    out
}

/// For each operand of `c`, the leaves of its size.
pub fn leaf_options(c: &Candidate, leaf_types: &[Ty]) -> Vec<Vec<usize>> {
    c.operands
        .iter()
        .map(|(_, t)| (0..leaf_types.len()).filter(|&l| leaf_types[l].bits() == t.bits()).collect())
        .collect()
}

/// Immediates of fewer values than this are tried one by one on the
/// samples instead of solved for.
pub const FEW_IMMEDIATES: i64 = 16;

/// Immediates of at most this many values are screened on lane prefixes,
/// value by value, before Z3 is asked for one.
pub const PREFIX_IMMEDIATES: i64 = 256;

/// Z3's budget for finding a candidate's immediate, in milliseconds of the
/// proof budget's scale (its resource limit and wall-clock cap per query).
pub const IMMEDIATE_MS: u32 = 2_000;

/// The immediate (at most one) that makes the candidate agree with the
/// window on the samples, solved for by Z3 with the operands concrete (the
/// synthesis step of CEGIS; the proof that follows is the verification).
/// Lane-scaled: the first query constrains only a few result lanes of one
/// sample; each counterexample adds a sample with twice the lanes, up to
/// the full width. `operands[s]` are the operand values for sample `s`.
/// `Some(vec![])` for a candidate without immediates. The candidate is
/// `grammar.candidates[index]`; concrete checks go through the grammar's
/// memo of evaluations.
pub fn immediates_for(
    grammar: &Grammar,
    index: usize,
    operands: &[Vec<BigUint>],
    expected: &[Option<BigUint>],
) -> Option<Vec<u32>> {
    let c = &grammar.candidates[index];
    let [(pos, _, _)] = c.immediates.as_slice() else {
        return c.immediates.is_empty().then(Vec::new);
    };
    let width = c.semantics().args[*pos].width;
    let (elem, all_lanes) = (c.result.elem_bits, c.result.lanes());
    let defined: Vec<(&Vec<BigUint>, &BigUint)> =
        operands.iter().zip(expected).filter_map(|(s, w)| w.as_ref().map(|w| (s, w))).collect();
    let agrees = |v: u32, s: &Vec<BigUint>, want: &BigUint| {
        let args = arguments(c, s, &[v], &|v, _| BigUint::from(v));
        grammar.evaluations.run(index, c, args).as_ref() == Some(want)
    };
    let (lo, hi) = c.immediate_values()?;
    // Whether some value may give the first sample's result, on its lane
    // prefix (see `lane_prefix`): a filter that refuses no value which does.
    let first = defined.first().copied();
    let may_give = |v: u32| {
        first.is_none_or(|(s, want)| {
            let args = arguments(c, s, &[v], &|v, _| BigUint::from(v));
            grammar.evaluations.may_give(index, c, args, want)
        })
    };
    // An immediate of few values (a lane, a small shift) is found by trying
    // each on the samples, cheaper than a solver call.
    if hi - lo < FEW_IMMEDIATES {
        return (lo..=hi)
            .filter_map(|v| u32::try_from(v).ok())
            .find(|&v| may_give(v) && defined.iter().all(|(s, want)| agrees(v, s, want)))
            .map(|v| vec![v]);
    }
    // A byte's worth of values is tried on the first lanes before a solver
    // call: most candidates are refused there.
    if c.lane_prefix().is_some()
        && hi - lo < PREFIX_IMMEDIATES
        && !(lo..=hi).filter_map(|v| u32::try_from(v).ok()).any(may_give)
    {
        return None;
    }
    z3::with_z3_config(&z3::Config::new(), || {
        let imm = BV::new_const("imm", width);
        let solver = z3::Solver::new();
        // Every query has a budget: a deterministic resource limit (the same outcome on every
        // machine) and a wall-clock cap. Running out means no immediate, never a rewrite.
        let mut params = z3::Params::new();
        params.set_u32("rlimit", IMMEDIATE_MS.saturating_mul(dialectgen::classify::proof::RLIMIT_PER_MS));
        params.set_u32("timeout", IMMEDIATE_MS.saturating_mul(dialectgen::classify::proof::WALL_CLOCK_FACTOR));
        solver.set_params(&params);
        solver.assert(imm.bvuge(BV::from_u64(lo as u64, width)));
        solver.assert(imm.bvule(BV::from_u64(hi as u64, width)));
        let mut dom = Smt::exact();
        let mut next = defined.first().copied();
        let mut lanes = all_lanes.min(4);
        for _ in 0..6 {
            let (s, want) = next?;
            let ops: Vec<BV> = s.iter().zip(&c.operands).map(|(x, (_, t))| dom.literal(x, t.bits())).collect();
            let args = arguments(c, &ops, &[0], &|_, _| imm.clone());
            let got = dialectgen::eval::typing::formula_over(c.semantics(), &args).ok()?;
            let want = dom.literal(want, c.semantics().result.width);
            let top = (lanes * elem).min(c.semantics().result.width) - 1;
            solver.assert(got.extract(top, 0).eq(want.extract(top, 0)));
            if solver.check() != z3::SatResult::Sat {
                return None;
            }
            let v = u32::try_from(solver.get_model()?.eval(&imm, true)?.as_u64()?).ok()?;
            next = defined.iter().copied().find(|(s, want)| !agrees(v, s, want));
            if next.is_none() {
                return Some(vec![v]);
            }
            lanes = (lanes * 2).min(all_lanes);
        }
        None
    })
}

/// The values of the window's constant leaves (the trailing leaves an
/// `arith.constant` defines).
pub(super) fn constant_leaves(flow: &Dataflow, window: &Window) -> Result<Vec<BigUint>, SemaError> {
    let mut out = Vec::new();
    for v in window.leaves.iter().rev() {
        let Some(op) = flow.constant(*v) else { break };
        let mut dom = Concrete;
        let mut ev = super::semantics::Evaluator::new(&mut dom);
        let value = ev.eval(op, &[])?.remove(0);
        out.push(value.bits);
    }
    out.reverse();
    Ok(out)
}

/// What screening needs to know about a window.
pub struct Screen<'a> {
    pub grammar: &'a Grammar,
    pub limits: &'a Limits,
    pub leaf_types: Vec<Ty>,
    /// Leaves `0..variable` are inputs; the rest are constants, which a
    /// program may read but need not.
    pub variable: usize,
    pub root_bits: u32,
    /// Element sizes of the window's values (leaves, intermediates, root).
    pub elem_bits: Vec<u32>,
    /// Sizes of the window's values.
    pub value_bits: Vec<u32>,
    /// Leaf values per sample.
    pub inputs: Vec<Vec<BigUint>>,
    /// The window's result per sample, `None` where it is undefined.
    pub expected: Vec<Option<BigUint>>,
    /// Programs costing more are no gain over the window as written (see
    /// the rule in `synthesize`); the search does not evaluate them.
    pub max_cost: usize,
    pub started: std::time::Instant,
    pub out_of_time: std::sync::atomic::AtomicBool,
}

impl<'a> Screen<'a> {
    /// The same window restated over other leaves and samples (a transposed
    /// result, say): its values' sizes and its deadline are kept.
    pub fn with_samples(
        &self,
        leaf_types: Vec<Ty>,
        inputs: Vec<Vec<BigUint>>,
        expected: Vec<Option<BigUint>>,
        max_cost: usize,
    ) -> Screen<'a> {
        Screen {
            grammar: self.grammar,
            limits: self.limits,
            leaf_types,
            variable: self.variable,
            root_bits: self.root_bits,
            elem_bits: self.elem_bits.clone(),
            value_bits: self.value_bits.clone(),
            inputs,
            expected,
            max_cost,
            started: self.started,
            out_of_time: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Whether the window's time is up (and remembers that it was).
    pub fn expired(&self) -> bool {
        let over = self.started.elapsed() > std::time::Duration::from_millis(self.limits.window_ms);
        if over {
            self.out_of_time.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        over
    }

    /// Whether `program` computes the expected value on every sample where the window is defined.
    pub fn agrees(&self, program: &Program) -> bool {
        self.inputs.iter().zip(&self.expected).all(|(s, want)| {
            want.as_ref().is_none_or(|want| program.run_concrete(self.grammar, s).as_ref() == Some(want))
        })
    }

    /// One-instruction programs that agree with the window on the samples.
    /// An instruction clang lowers to generic IR is one only for a window
    /// of two ops or more: for one op it would re-spell, as other generic
    /// IR, what LLVM's path starts from (and llc may then select worse);
    /// for more it is the one generic op LLVM selects the instruction from
    /// (`llvm.abs` for a compare, negation and select), where a program of
    /// two intrinsics would be dearer than LLVM's own selection.
    pub(super) fn single(&self, ci: usize, c: &Candidate) -> Vec<Program> {
        let mut out = Vec::new();
        if self.expired()
            || (c.generic && self.max_cost < 2)
            || c.result.bits() != self.root_bits
            || c.operands.len() < self.variable
            || !c.allowed_on(self.limits.target)
            // Immediates cost a solver call per binding: only for element sizes the window has.
            || (!c.immediates.is_empty() && !self.elem_bits.contains(&c.result.elem_bits))
        {
            return out;
        }
        // The first defined sample and the window's value there, for a
        // candidate without immediates (with them, `immediates_for` screens).
        let screened_first = self
            .expected
            .iter()
            .enumerate()
            .find_map(|(k, w)| Some((k, w.as_ref()?)))
            .filter(|_| c.immediates.is_empty());
        for binding in assignments(&leaf_options(c, &self.leaf_types), self.variable, self.limits.bindings) {
            if c.mirrored(&binding) {
                continue;
            }
            let operands: Vec<Vec<BigUint>> =
                self.inputs.iter().map(|s| binding.iter().map(|&l| s[l].clone()).collect()).collect();
            let Some(imms) = immediates_for(self.grammar, ci, &operands, &self.expected) else { continue };
            // Screened on the first defined sample's first lanes before the full runs.
            if let Some((first, want)) = screened_first {
                let args = super::program::arguments(c, &operands[first], &[], &|v, _| BigUint::from(v));
                if !self.grammar.evaluations.may_give(ci, c, args, want) {
                    continue;
                }
            }
            let immediates = c.immediates.iter().zip(&imms).map(|((_, n, _), v)| (n.clone(), *v)).collect();
            let program = Program::single(ci, &binding, immediates);
            if self.agrees(&program) {
                out.push(program);
            }
        }
        out
    }
}

/// Whether `program` computes `window` (its constants lifted to leaves) on
/// sample inputs other than the search's: the check a memo hit gets before
/// use. Inputs where the window is undefined are skipped.
pub fn agrees_on_fresh_samples(flow: &Dataflow, window: &Window, grammar: &Grammar, program: &Program) -> bool {
    agrees_on_fresh_samples_reading(flow, window, grammar, program, &[])
}

/// [`agrees_on_fresh_samples`] for a program that also reads constants of
/// its own (`extra`), as leaves after the window's.
pub fn agrees_on_fresh_samples_reading(
    flow: &Dataflow,
    window: &Window,
    grammar: &Grammar,
    program: &Program,
    extra: &[BigUint],
) -> bool {
    let Some(leaf_types) = window.leaves.iter().map(|v| flow.type_of(*v)).collect::<Option<Vec<Ty>>>() else {
        return false;
    };
    let Ok(constants) = constant_leaves(flow, window) else { return false };
    let variable = leaf_types.len() - constants.len();
    samples_seeded(&leaf_types[..variable], 8, 0x5851_f42d_4c95_7f2d).into_iter().all(|mut s| {
        s.extend(constants.iter().cloned());
        match eval_window(&mut Concrete, flow, window, &s) {
            Ok((v, defined)) if defined.iter().all(|d| *d == BigUint::from(1u8)) => {
                s.extend(extra.iter().cloned());
                program.run_concrete(grammar, &s).as_ref() == Some(&v.bits)
            }
            Ok(_) => true,
            Err(_) => false,
        }
    })
}
