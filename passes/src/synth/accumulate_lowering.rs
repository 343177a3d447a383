//! A chain of products by constants lowered one input at a time
//! ([`super::accumulate`]): each term shape's program searched once, the
//! chain's program strung from them, proved, and kept where it costs less
//! than LLVM's chain (weighed with the chains sharing its inputs, as
//! [`super::products_lowering`] weighs pairs).

use super::accumulate::{
    accumulated_block, accumulations, chain_program, instructions_only, term_window, weight_constants,
};
use super::accumulate::{Factor, LaneLayout, TermShape};
use super::attr::Attr;
use super::block::{BlockOp, Dataflow};
use super::chain_rewrite::{
    adder, chain_new_ops, chain_pays, chain_pays_on_cpu, cheapest_single, prove_chain_is_block, Single,
};
use super::grammar::Grammar;
use super::memoized::{program_of_block, proved_once};
use super::options::Options;
use super::pair_windows::{push, vector};
use super::plan::NewOp;
use super::products::{LinearForm, LlvmChain, PartProgram};
use super::program::Program;
use super::program::{Source, Step, StepOp};
use super::unpaired::NotPaired;
use num_bigint::BigInt;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The chain `form` ending at `root`, one input at a time: the new ops and
/// the ops they replace, or why not.
pub(super) fn accumulates_program(
    flow: &Dataflow,
    root: usize,
    form: &LinearForm,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Result<(Vec<NewOp>, Vec<usize>), NotPaired> {
    let register = options.limits.target.register_bits();
    let layout = LaneLayout::of(form, register)
        .ok_or(NotPaired::NoLayout("inputs of bytes and sums of 16 bits in one or two registers"))?;
    // The pieces of each chain rewritten together accumulate side by side.
    let siblings = super::products::sibling_chains(flow, form, root).unwrap_or_default();
    let side_by_side = layout.pieces as usize * (1 + siblings.len());
    let terms = accumulations(&form.terms, side_by_side).ok_or(NotPaired::NoStartingProduct)?;
    let piece = super::types::Ty { dims: vec![layout.piece_lanes()], elem_bits: layout.elem_bits };
    let add = adder(grammar, options, &piece);
    let programs = TermPrograms { n: layout.piece_lanes(), grammar, options, deadline, found: Default::default() };
    let lookup = |shape: TermShape| programs.get(shape);
    let window = flow.close(form.ops.clone(), root);
    let lifted = flow.lift_constants(&window);
    // Each sibling chain (another chain reading its inputs) as the same
    // terms' programs would compute it.
    let sibling_program = |f: &LinearForm, shifts: Option<u32>| -> Option<Program> {
        (LaneLayout::of(f, register)? == layout).then_some(())?;
        let terms = accumulations(&f.terms, side_by_side)?;
        let inputs: Vec<usize> = terms.concat().iter().map(|(v, _)| *v).collect();
        chain_program(&inputs, &terms, (&layout, shifts, add), &lookup).map(|p| instructions_only(&p))
    };
    let (program, shifts) = cheapest_policy(
        &terms,
        (&lifted.leaves, &layout, add),
        (grammar, options),
        (&siblings, &sibling_program),
        &lookup,
    )?;
    let priced = instructions_only(&program);
    let llvm = LlvmChain::of_isa(options.limits.target.isa());
    let sibling = |f: &LinearForm| sibling_program(f, shifts);
    match chain_pays_on_cpu(flow, root, form, (&priced, grammar), (options.limits.cpu, llvm), &sibling) {
        Some(verdict) => verdict?,
        None => {
            let sibling_cost = |f: &LinearForm| Some(sibling(f)?.cost(grammar));
            chain_pays(flow, root, form, priced.cost(grammar), (register, llvm), sibling_cost)?
        }
    }
    let weights = weight_constants(&terms.concat(), &layout, shifts);
    let extra: Vec<_> = weights.iter().map(|(_, v, _)| v.clone()).collect();
    if !super::screen::agrees_on_fresh_samples_reading(flow, &lifted, grammar, &program, &extra) {
        return Err(NotPaired::DiffersOnSamples);
    }
    // Each term's program holds at every weight (its search proved it with
    // the weights an input); the chain equals the terms strung together.
    let what = format!("sum of products, one at a time {:016x}: {}", grammar.version, program.describe(grammar));
    let block = |inputs: &super::types::Ty| accumulated_block(&terms, (&layout, shifts), inputs);
    prove_chain_is_block((flow, &window, form), block, &what, options)?;
    Ok((chain_new_ops(weights, &lifted.leaves, &program, grammar), window.ops))
}

/// A sibling chain's program under a shifting policy.
type SiblingProgram<'a> = dyn Fn(&LinearForm, Option<u32>) -> Option<Program> + 'a;

/// The chain's program with its powers of two multiplied, or shifted from
/// some power up, whichever costs least on the CPU's model with the chains
/// sharing its inputs (the multiplies run on fewer units than shifts and
/// adds: a chain of multiply-accumulates alone can wait on them, a chain
/// of shifts and adds alone takes more instructions); by instruction count
/// where the model prices neither. With the power shifted from.
/// `siblings`: the chains sharing its inputs, each's program under a
/// shifting policy by `sibling_program`.
fn cheapest_policy(
    terms: &[Vec<(usize, i64)>],
    (leaves, layout, add): (&[usize], &LaneLayout, Option<usize>),
    (grammar, options): (&Grammar, &Options),
    (siblings, sibling_program): (&[(usize, LinearForm)], &SiblingProgram),
    lookup: &dyn Fn(TermShape) -> Option<PartProgram>,
) -> Result<(Program, Option<u32>), NotPaired> {
    // Each exponent of a power of two, largest first: shifting from it.
    let mut exponents: Vec<u32> = terms
        .concat()
        .iter()
        .map(|(_, w)| w.unsigned_abs())
        .filter(|m| *m > 1 && m.is_power_of_two())
        .map(u64::trailing_zeros)
        .collect();
    exponents.sort_unstable_by(|a, b| b.cmp(a));
    exponents.dedup();
    let mut best: Option<((bool, f64), Program, Option<u32>)> = None;
    for shifts in std::iter::once(None).chain(exponents.into_iter().map(Some)) {
        let Some(program) = chain_program(leaves, terms, (layout, shifts, add), lookup) else { continue };
        let mut all = instructions_only(&program);
        for (_, f) in siblings {
            all.steps.extend(sibling_program(f, shifts).map(|p| p.steps).unwrap_or_default());
        }
        let price = match all.cycles(grammar, options.limits.cpu) {
            Some(cycles) => (true, cycles),
            None => (false, all.cost(grammar) as f64),
        };
        if best.as_ref().is_none_or(|(b, _, _)| price.0 && !b.0 || price.0 == b.0 && price.1 < b.1) {
            best = Some((price, program, shifts));
        }
    }
    best.map(|(_, program, shifts)| (program, shifts)).ok_or(NotPaired::NoPairProgram)
}

/// Each term shape's program at `n` lanes, searched on first use.
struct TermPrograms<'a> {
    n: u32,
    grammar: &'a Grammar,
    options: &'a Options,
    deadline: std::time::Instant,
    found: RefCell<BTreeMap<TermShape, Option<PartProgram>>>,
}

impl TermPrograms<'_> {
    fn get(&self, shape: TermShape) -> Option<PartProgram> {
        if let Some(found) = self.found.borrow().get(&shape) {
            return found.clone();
        }
        let found = self.search(shape);
        self.found.borrow_mut().insert(shape, found.clone());
        found
    }

    /// The search's program for the term's window; where it has none (an
    /// add of an extension, or of its widening shift: instructions clang
    /// writes as generic IR, which the search does not offer alone), the
    /// target's cheapest single instructions for the widening shift and
    /// for the add or subtraction, each agreeing with its part on samples,
    /// strung together and proved.
    fn search(&self, shape: TermShape) -> Option<PartProgram> {
        let (ops, root) = term_window(shape, self.n, 16);
        if let Some((program, lifted)) = program_of_block(&ops, root, self.grammar, self.options, self.deadline) {
            // A program reading a shift's constant as a register is not
            // strung (the chain holds no such constant).
            let read = |l: &usize| program.steps.iter().any(|s| s.operands.contains(&Source::Leaf(*l)));
            let leaves = &lifted.leaves;
            if (0..leaves.len()).filter(read).all(|l| matches!(leaves[l], 0 | 2 | 3)) {
                return Some(PartProgram { program, leaf_values: lifted.leaves });
            }
        }
        let flow = Dataflow::new(&ops);
        let window = flow.close((0..ops.len()).collect(), root);
        let lifted = flow.lift_constants(&window);
        let position = |v: usize| lifted.leaves.iter().position(|l| *l == v);
        let (bytes, sum) = (position(0)?, position(2));
        let mut steps = Vec::new();
        let widened = match shape.factor {
            Factor::Unit => None,
            Factor::Product => return None,
            Factor::Shift(k) => {
                let Single { candidate, immediates, .. } =
                    cheapest_single(self.grammar, self.options.limits.target, &shift_window(self.n, k), 1)?;
                let operands = vec![Source::Leaf(bytes)];
                steps.push(Step { op: StepOp::Instr { candidate, immediates }, operands });
                Some(Source::Step(0))
            }
        };
        match (shape.accumulate, widened) {
            (false, None) => return None,
            (false, Some(_)) => {}
            (true, widened) => {
                let Single { candidate, immediates, reads } = cheapest_single(
                    self.grammar,
                    self.options.limits.target,
                    &combine_window(self.n, shape.subtract, widened.is_none()),
                    0,
                )?;
                let term = widened.unwrap_or(Source::Leaf(bytes));
                let operands = reads.iter().map(|v| if *v == 0 { sum.map(Source::Leaf) } else { Some(term) });
                let operands = operands.collect::<Option<Vec<_>>>()?;
                steps.push(Step { op: StepOp::Instr { candidate, immediates }, operands });
            }
        }
        let program = Program { steps };
        let what = format!("term of products {:016x}: {}", self.grammar.version, program.describe(self.grammar));
        proved_once(self.options, &what, &flow, &window, || {
            super::search::prove(&flow, &lifted, self.grammar, &self.options.limits, &program)
        })
        .ok()?;
        Some(PartProgram { program, leaf_values: lifted.leaves })
    }
}

/// `zext(x) << k` of `n` bytes into 16-bit lanes: its ops and root.
fn shift_window(n: u32, k: u32) -> (Vec<BlockOp>, usize) {
    let (narrow, wide) = (vector(n, 8), vector(n, 16));
    let mut ops = Vec::new();
    push(&mut ops, "arith.extui", vec![(0, narrow)], (1, wide.clone()), vec![]);
    let value = vec![("value".into(), Attr::Elements(vec![BigInt::from(k); n as usize]))];
    push(&mut ops, "arith.constant", vec![], (2, wide.clone()), value);
    push(&mut ops, "arith.shli", vec![(1, wide.clone()), (2, wide.clone())], (3, wide), vec![]);
    (ops, 2)
}

/// `s ± t` of 16-bit lanes, or `s ± zext(t)` of bytes where `extend`: its
/// ops and root (operands in that order).
fn combine_window(n: u32, subtract: bool, extend: bool) -> (Vec<BlockOp>, usize) {
    let wide = vector(n, 16);
    let mut ops = Vec::new();
    let mut t = 1;
    if extend {
        push(&mut ops, "arith.extui", vec![(1, vector(n, 8))], (2, wide.clone()), vec![]);
        t = 2;
    }
    let name = if subtract { "arith.subi" } else { "arith.addi" };
    push(&mut ops, name, vec![(0, wide.clone()), (t, wide.clone())], (3, wide), vec![]);
    let root = ops.len() - 1;
    (ops, root)
}
