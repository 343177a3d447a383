//! A chain of multiply-accumulates by constants lowered two products at a
//! time ([`super::products`]): each pair's program searched once at
//! representative weights, the chain's program strung from them, proved
//! in two parts and kept where it costs less than LLVM's chain.

use super::accumulate_lowering::accumulates_program;
use super::block::Dataflow;
use super::chain_rewrite::{adder, chain_new_ops, chain_pays, chain_pays_on_cpu, prove_chain_is_block};
use super::grammar::Grammar;
use super::memoized::{program_of_block, proved_once};
use super::options::Options;
use super::pair_windows::{pair_window, paired_block};
use super::plan::NewOp;
use super::products::{chain_program, pairs};
use super::products::{weight_constants, Arrangement, Layout, LinearForm, PartProgram};
use super::program::{Program, Source, Step, StepOp};
use super::types::Ty;
use super::unpaired::{ChainUnpaired, NotPaired};
use std::collections::BTreeSet;

/// The weights a pair's program is searched at (see [`by_products`]).
const REPRESENTATIVE_PAIR: [(usize, i64); 2] = [(0, 3), (0, -5)];

/// A chain of multiply-accumulates by constants ending at `root`, two
/// products at a time ([`super::products`]): the program, proved, as new
/// ops, and the chain's ops it replaces. `None` where the chain is not a
/// sum of products, its pairs have no program, or the whole is no cheaper.
pub(super) fn by_products(
    flow: &Dataflow,
    root: usize,
    consumed: &BTreeSet<usize>,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Option<Result<(Vec<NewOp>, Vec<usize>), ChainUnpaired>> {
    use super::products::linear_form;
    let form = linear_form(flow, root)?;
    if form.ops.iter().any(|p| consumed.contains(p)) {
        return None;
    }
    let terms = form.terms.len();
    if options.limits.target.isa().tuning().lanewise_widening_macs {
        let how = "one at a time";
        return Some(
            worth_pairing(flow, &form)
                .and_then(|()| accumulates_program(flow, root, &form, grammar, options, deadline))
                .map_err(|why| ChainUnpaired { terms, how, why }),
        );
    }
    let how = "two at a time";
    Some(products_program(flow, root, form, grammar, options, deadline).map_err(|why| ChainUnpaired {
        terms,
        how,
        why,
    }))
}

/// [`by_products`] for the chain `form` ending at `root`: the new ops and
/// the ops they replace, or why not.
fn products_program(
    flow: &Dataflow,
    root: usize,
    form: LinearForm,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Result<(Vec<NewOp>, Vec<usize>), NotPaired> {
    worth_pairing(flow, &form)?;
    let target = options.limits.target;
    let register = target.register_bits();
    let arrangement = Arrangement::of_isa(target.isa());
    let layout = Layout::of(&form, register, arrangement).ok_or(NotPaired::NoLayout(match arrangement {
        Arrangement::LaneUnpack => {
            "inputs of whole 128-bit lanes of bytes, sums of 16 or 32 bits, and half the sum in a register"
        }
        Arrangement::Halves => "inputs of bytes, sums of 16 bits, and two inputs in a register",
    }))?;
    let elem_bits = layout.elem_bits;
    let pairs = pairs(&form.terms, elem_bits / 2, arrangement).ok_or(NotPaired::WeightsDoNotFit)?;
    // The target's instructions of a pair's width: none, no search.
    if !grammar.candidates.iter().any(|c| c.result.bits() == layout.chain_bits() && c.allowed_on(target)) {
        return Err(NotPaired::NoInstructionOfWidth(layout.chain_bits()));
    }
    let (first, next) = pair_programs(&layout, grammar, options, deadline)?;
    let window = flow.close(form.ops.clone(), root);
    let lifted = flow.lift_constants(&window);
    // Where the chain holds each input's products apart, the target's add
    // sums them at the end.
    let result_ty = Ty { dims: vec![form.lanes], elem_bits };
    let add = match arrangement {
        Arrangement::LaneUnpack => None,
        Arrangement::Halves => Some(adder(grammar, options, &result_ty).ok_or(NotPaired::NoProductAdd)?),
    };
    let program =
        chain_program(&lifted.leaves, &pairs, &layout, &first, &next, add).ok_or(NotPaired::ReadsOtherValues)?;
    // Each sibling chain (another chain reading its inputs) as the same
    // pairs' programs would compute it.
    let sibling_program = |f: &LinearForm| -> Option<Program> {
        let inputs: Vec<usize> = f.terms.iter().map(|(v, _)| *v).collect();
        let pairs = super::products::pairs(&f.terms, elem_bits / 2, arrangement)?;
        (Layout::of(f, register, arrangement).as_ref() == Some(&layout)).then_some(())?;
        chain_program(&inputs, &pairs, &layout, &first, &next, add)
    };
    let llvm = super::products::LlvmChain::of_isa(target.isa());
    match chain_pays_on_cpu(flow, root, &form, (&program, grammar), (options.limits.cpu, llvm), &sibling_program) {
        Some(verdict) => verdict?,
        None => {
            let sibling_cost = |f: &LinearForm| Some(sibling_program(f)?.cost(grammar));
            chain_pays(flow, root, &form, program.cost(grammar), (register, llvm), sibling_cost)?
        }
    }
    let weights = weight_constants(&pairs, &layout);
    // The program against the chain on samples first: the two-part proof
    // below holds for the program as `chain_program` strings it from the
    // pairs, and this checks that it computes the chain as `paired_block` has it.
    let extra: Vec<_> = weights.iter().map(|(_, v, _)| v.clone()).collect();
    if !super::screen::agrees_on_fresh_samples_reading(flow, &lifted, grammar, &program, &extra) {
        return Err(NotPaired::DiffersOnSamples);
    }
    // The proof, in two parts: each pair's program equals its window at
    // that pair's weights (the search proved it at representative ones), and the
    // chain equals the pairs' windows strung together as the program
    // strings their programs.
    prove_pairs(&pairs, &layout, (&first, &next), grammar, options)?;
    let what = format!("sum of products {:016x}: {}", grammar.version, program.describe(grammar));
    prove_chain_is_block((flow, &window, &form), |inputs| paired_block(&pairs, &layout, inputs), &what, options)?;
    Ok((chain_new_ops(weights, &lifted.leaves, &program, grammar), window.ops))
}

/// Why the chain `form` is not worth pairing, if it is not.
fn worth_pairing(flow: &Dataflow, form: &LinearForm) -> Result<(), NotPaired> {
    // Inputs that are lanes moved from other values (halves of a
    // deinterleave) are left alone: interleaving them again undoes what
    // LLVM folds into its extensions (average_pool with 512-bit registers:
    // slower).
    let moved = |v: usize| {
        flow.defining_op(v).is_some_and(|p| {
            matches!(flow.ops[p].name.as_str(), "vector.deinterleave" | "vector.shuffle" | "vector.interleave")
        })
    };
    if form.terms.iter().any(|(v, _)| moved(*v)) {
        return Err(NotPaired::MovedInputs);
    }
    // A sum of extensions alone has no products to pair: LLVM's adds of its
    // extensions (the loads folded into them) are as cheap (box_blur3x3
    // with 256-bit registers, paired, ran slower).
    if form.terms.iter().all(|(_, w)| w.abs() == 1) {
        return Err(NotPaired::UnitWeights);
    }
    Ok(())
}

/// The programs of a chain's first pair and of each pair after it (which
/// adds into the chain). One search per pair shape and target, at
/// representative weights (one positive, one negative: no program that
/// holds for one sign alone); the proof of each pair at its own weights
/// follows.
fn pair_programs(
    layout: &Layout,
    grammar: &Grammar,
    options: &Options,
    deadline: std::time::Instant,
) -> Result<(PartProgram, PartProgram), NotPaired> {
    let (elem_bits, arrangement) = (layout.elem_bits, layout.arrangement);
    let pair_program = |accumulate: bool| -> Option<PartProgram> {
        let (ops, root) = pair_window(&layout.weights(&REPRESENTATIVE_PAIR), elem_bits, arrangement, accumulate);
        program_of_block(&ops, root, grammar, options, deadline)
            .map(|(program, lifted)| PartProgram { program, leaf_values: lifted.leaves })
    };
    let first = pair_program(false).ok_or(NotPaired::NoPairProgram)?;
    // Without an instruction that adds a pair into the chain, the pair's
    // program then the target's add (a pairwise multiply-add of 16-bit
    // lanes, then an add of 32-bit lanes).
    let next = pair_program(true)
        .or_else(|| {
            let add = adder(grammar, options, &Ty { dims: vec![layout.chain_bits() / elem_bits], elem_bits })?;
            let mut steps = first.program.steps.clone();
            let (pair, sum) = (Source::Step(steps.len() - 1), Source::Leaf(first.leaf_values.len()));
            steps.push(Step { op: StepOp::Instr { candidate: add, immediates: vec![] }, operands: vec![sum, pair] });
            let mut leaf_values = first.leaf_values.clone();
            leaf_values.push(2);
            Some(PartProgram { program: Program { steps }, leaf_values })
        })
        .ok_or(NotPaired::NoChainAdd)?;
    Ok((first, next))
}

/// Proves each pair's program (`first` for the first pair, `next` for the
/// rest) equal to its window at that pair's weights: the search proved
/// them at representative weights. Where the pair window's weights are an
/// input, the search's proof holds for every pair and nothing is left.
fn prove_pairs(
    pairs: &[[(usize, i64); 2]],
    layout: &Layout,
    (first, next): (&PartProgram, &PartProgram),
    grammar: &Grammar,
    options: &Options,
) -> Result<(), NotPaired> {
    let (elem_bits, arrangement) = (layout.elem_bits, layout.arrangement);
    if arrangement.any_weights() {
        return Ok(());
    }
    for (k, pair) in pairs.iter().enumerate() {
        let used = if k == 0 { first } else { next };
        let (ops, root) = pair_window(&layout.weights(pair), elem_bits, arrangement, k > 0);
        let pair_flow = Dataflow::new(&ops);
        let pair_window = pair_flow.close((0..ops.len()).collect(), root);
        let lifted = pair_flow.lift_constants(&pair_window);
        // The program's leaves in the order of this window's.
        let mut program = used.program.clone();
        for step in &mut program.steps {
            for o in &mut step.operands {
                if let Source::Leaf(l) = o {
                    *l = lifted
                        .leaves
                        .iter()
                        .position(|v| Some(v) == used.leaf_values.get(*l))
                        .ok_or(NotPaired::ReadsOtherValues)?;
                }
            }
        }
        let what = format!("pair of products {:016x}: {}", grammar.version, program.describe(grammar));
        proved_once(options, &what, &pair_flow, &pair_window, || {
            super::search::prove(&pair_flow, &lifted, grammar, &options.limits, &program)
        })
        .map_err(|why| NotPaired::PairUnproved { pair: k, why })?;
    }
    Ok(())
}
