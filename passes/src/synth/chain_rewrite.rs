//! What rewriting a chain of products by constants takes, whichever way
//! it is taken ([`super::products_lowering`], two products at a time;
//! [`super::accumulate_lowering`], one): whether its program pays against
//! LLVM's own chain, alone or weighed with the chains that share its
//! inputs, on the CPU's model or by instruction count; and the proof that
//! the chain equals the block of `arith` ops its program was strung from.

use super::attr::NewAttr;
use super::block::{BlockOp, Dataflow, Window};
use super::grammar::{Grammar, Target};
use super::memoized::proved_once;
use super::options::Options;
use super::pair_windows::add_window;
use super::plan::{new_ops_reading, NewOp, Ref};
use super::products::LinearForm;
use super::program::Program;
use super::proof::{sums_equal_reading, LeafElements};
use super::types::Ty;
use super::unpaired::NotPaired;
use num_bigint::BigUint;

/// The new ops of a chain's program: its constants (`constants`, each a
/// type, its bits and its attribute), then its steps, reading the window's
/// leaves (`leaves`, value numbers) and the constants after them.
pub(super) fn chain_new_ops(
    constants: Vec<(Ty, BigUint, NewAttr)>,
    leaves: &[usize],
    program: &Program,
    grammar: &Grammar,
) -> Vec<NewOp> {
    let mut new: Vec<NewOp> = constants
        .into_iter()
        .map(|(ty, _, value)| NewOp {
            op: "arith.constant".into(),
            attributes: vec![("value".into(), value)],
            operands: vec![],
            result: ty,
        })
        .collect();
    let count = leaves.len();
    let leaf = |l: usize| if l < count { Ref::Value(leaves[l]) } else { Ref::Step(l - count) };
    new.extend(new_ops_reading(grammar, program, &leaf, new.len()));
    new
}

/// Proves the chain `form` (its window `window`) equal to `block` (ops and
/// root), the chain as its program's parts compute it; `what` names the
/// claim in the memo.
pub(super) fn prove_chain_is_block(
    (flow, window, form): (&Dataflow, &Window, &LinearForm),
    block: impl FnOnce(&super::types::Ty) -> (Vec<BlockOp>, usize),
    what: &str,
    options: &Options,
) -> Result<(), NotPaired> {
    let inputs = flow.type_of(form.terms[0].0).ok_or(NotPaired::UntypedInput)?;
    let (block_ops, block_root) = block(&inputs);
    let block_flow = Dataflow::new(&block_ops);
    let whole = block_flow.close((0..block_ops.len()).collect(), block_root);
    let sources = |w: &Window| -> Option<Vec<LeafElements>> {
        w.leaves
            .iter()
            .map(|v| window.leaves.iter().position(|l| l == v).map(|source| LeafElements { source, first: 0 }))
            .collect()
    };
    let (own, theirs) = sources(window).zip(sources(&whole)).ok_or(NotPaired::ReadsOtherInputs)?;
    proved_once(options, what, flow, window, || {
        sums_equal_reading((flow, window, &own), (&block_flow, &whole, &theirs), options.limits.proof_ms)
    })
    .map_err(NotPaired::ChainUnproved)
}

/// Whether a chain's program (`program` instructions, and the loads it
/// needs that LLVM's chain does not) costs less than the chain's ops in
/// registers of the target as LLVM computes them (`llvm`), less the
/// extensions that stay for readers outside it; the reason not,
/// otherwise. Where those readers are chains too (a Sobel filter's other
/// gradient), the chains are weighed together, each sibling at
/// `sibling_cost`: each is rewritten where all of them cost less as
/// programs.
pub(super) fn chain_pays(
    flow: &Dataflow,
    root: usize,
    form: &LinearForm,
    program: usize,
    (register, llvm): (u32, super::products::LlvmChain),
    sibling_cost: impl Fn(&LinearForm) -> Option<usize>,
) -> Result<(), NotPaired> {
    use super::products::{chains_cost, sibling_chains};
    let cost = program + llvm.program_loads(flow, &[(root, form)], register);
    let computing = chains_cost(flow, &[(root, form)], register, llvm);
    if cost < computing {
        return Ok(());
    }
    let alone = NotPaired::Dearer { cost, chain: computing };
    let Some(siblings) = sibling_chains(flow, form, root).filter(|s| !s.is_empty()) else {
        return Err(alone);
    };
    let Some(costs) = siblings.iter().map(|(_, f)| sibling_cost(f)).collect::<Option<Vec<usize>>>() else {
        return Err(alone);
    };
    let mut chains = vec![(root, form)];
    chains.extend(siblings.iter().map(|(r, f)| (*r, f)));
    let together = program + llvm.program_loads(flow, &chains, register) + costs.iter().sum::<usize>();
    let theirs = chains_cost(flow, &chains, register, llvm);
    if together < theirs {
        return Ok(());
    }
    Err(NotPaired::DearerWithSiblings { cost, chain: computing, siblings: siblings.len(), together, theirs })
}

/// Whether a chain's program takes fewer cycles on `cpu` than LLVM's
/// chain ([`super::products::chain_ops`], priced as `op_price` has LLVM's
/// ops), alone or weighed with the chains sharing its inputs as
/// [`chain_pays`] weighs them; `None` where the model does not price both
/// (then the count decides). Memory is left out on both sides: LLVM folds
/// its loads into its extensions, the program loads each input register
/// once, and the CPU's tables price neither.
pub(super) fn chain_pays_on_cpu(
    flow: &Dataflow,
    root: usize,
    form: &LinearForm,
    (program, grammar): (&Program, &Grammar),
    (cpu, llvm): (super::target::Cpu, super::products::LlvmChain),
    sibling_program: &dyn Fn(&LinearForm) -> Option<Program>,
) -> Option<Result<(), NotPaired>> {
    use super::op_price;
    use super::products::{chain_ops, sibling_chains};
    let llvm_cycles = |chains: &[(usize, &LinearForm)]| {
        op_price::cycles(cpu, flow, chain_ops(flow, chains, llvm).into_iter().map(|p| &flow.ops[p]))
    };
    let alone = op_price::verdict(cpu, llvm_cycles(&[(root, form)]), program.cycles(grammar, cpu), "paired")?;
    let Err(why) = alone else { return Some(Ok(())) };
    let siblings = sibling_chains(flow, form, root).filter(|s| !s.is_empty());
    let Some(siblings) = siblings else { return Some(Err(NotPaired::DearerOnCpu(why))) };
    let mut steps = program.steps.clone();
    for (_, f) in &siblings {
        match sibling_program(f) {
            Some(p) => steps.extend(p.steps),
            None => return Some(Err(NotPaired::DearerOnCpu(why))),
        }
    }
    let mut chains = vec![(root, form)];
    chains.extend(siblings.iter().map(|(r, f)| (*r, f)));
    let together = Program { steps }.cycles(grammar, cpu);
    let tail = format!("with the {} chains sharing its inputs", siblings.len());
    Some(match op_price::verdict(cpu, llvm_cycles(&chains), together, &format!("paired {tail}")) {
        Some(Ok(_)) => Ok(()),
        Some(Err(with)) => Err(NotPaired::DearerOnCpu(format!("{why}; {with}"))),
        None => Err(NotPaired::DearerOnCpu(why)),
    })
}

/// The target's cheapest instruction adding two vectors of type `ty` lane
/// by lane, as its candidate index: of the instructions that agree with
/// `a + b` on samples ([`agreeing_singles`]; the search gives a lone add,
/// which LLVM makes of `arith.addi` as well, no program of its own), the
/// cheapest proved equal to it by Z3.
pub(super) fn adder(grammar: &Grammar, options: &Options, ty: &Ty) -> Option<usize> {
    let (ops, root) = add_window(ty);
    let flow = Dataflow::new(&ops);
    let window = flow.close((0..ops.len()).collect(), root);
    agreeing_singles(grammar, options.limits.target, &(ops.clone(), root), 0).into_iter().map(|s| s.candidate).find(
        |&i| {
            let program = Program::single(i, &[0, 1], vec![]);
            let what = format!("add {:016x}: {}", grammar.version, program.describe(grammar));
            proved_once(options, &what, &flow, &window, || {
                super::search::prove(&flow, &window, grammar, &options.limits, &program)
            })
            .is_ok()
        },
    )
}

/// One instruction found for a window: its candidate, immediates and the
/// leaf (a value number of the window) each operand reads.
pub(super) struct Single {
    pub candidate: usize,
    pub immediates: Vec<(String, u32)>,
    pub reads: Vec<usize>,
}

/// The cheapest of [`agreeing_singles`].
pub(super) fn cheapest_single(
    grammar: &Grammar,
    target: Target,
    block: &(Vec<BlockOp>, usize),
    immediates: usize,
) -> Option<Single> {
    agreeing_singles(grammar, target, block, immediates).into_iter().next()
}

/// The target's instructions computing the window of all of the block's
/// ops (root at the position given) on samples, cheapest first (then by
/// candidate index), each at the first value below 16 of at most
/// `immediates` immediates that agrees; its operands bound to the leaves by
/// type where the leaves' types differ, else in order. Samples only: what
/// reads one is proved before use.
pub(super) fn agreeing_singles(
    grammar: &Grammar,
    target: Target,
    (ops, root): &(Vec<BlockOp>, usize),
    immediates: usize,
) -> Vec<Single> {
    let flow = Dataflow::new(ops);
    let window = flow.close((0..ops.len()).collect(), *root);
    let lifted = flow.lift_constants(&window);
    let variable = lifted.leaves.iter().filter(|v| flow.constant(**v).is_none()).count();
    let types: Option<Vec<Ty>> = lifted.leaves[..variable].iter().map(|v| flow.type_of(*v)).collect();
    let (Some(types), Some(result)) = (types, flow.type_of(ops[*root].results[0])) else { return Vec::new() };
    let distinct = types.iter().enumerate().all(|(i, t)| !types[..i].contains(t));
    let mut found: Vec<(usize, Single)> = Vec::new();
    for (i, c) in grammar.candidates.iter().enumerate() {
        if c.result != result
            || c.immediates.len() > immediates
            || c.operands.len() != types.len()
            || !c.allowed_on(target)
        {
            continue;
        }
        let operands: Option<Vec<usize>> = if distinct {
            c.operands.iter().map(|(_, t)| types.iter().position(|u| u == t)).collect()
        } else {
            c.operands.iter().zip(&types).all(|((_, t), u)| t == u).then(|| (0..types.len()).collect())
        };
        let Some(operands) = operands else { continue };
        let values: Vec<Vec<(String, u32)>> = match c.immediates.as_slice() {
            [] => vec![vec![]],
            [(_, name, _)] => (0..16).map(|v| vec![(name.clone(), v)]).collect(),
            _ => continue,
        };
        for imms in values {
            let program = Program::single(i, &operands, imms.clone());
            if super::screen::agrees_on_fresh_samples(&flow, &lifted, grammar, &program) {
                let reads = operands.iter().map(|l| lifted.leaves[*l]).collect();
                found.push((c.cost, Single { candidate: i, immediates: imms, reads }));
                break;
            }
        }
    }
    // Stable: equal costs stay in candidate order.
    found.sort_by_key(|(cost, _)| *cost);
    found.into_iter().map(|(_, s)| s).collect()
}
