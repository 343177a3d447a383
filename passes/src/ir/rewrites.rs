//! The rewrites `lower-to-autollvm` is made of, in the order it runs them.
//! Each is a registered pass of its own (`hydride-…`, see `cpp/shim.cpp`),
//! so it can be run, tested, timed or left out alone; `lower-to-autollvm`
//! is the pipeline of all of them with the options given to it.

pub use super::failure::Failure;
use super::{
    column_extrema, contract_elementwise, deinterleaved_extrema, divide_by_constant, equal_weights, even_odd,
    in_place_widening, piece_order, private_extensions, raw, split_contract, sum_as_dot, synthesize,
};
use crate::synth::grammar::Grammar;
use crate::synth::lower::Options;
use melior::ir::OperationRef;
use melior::Context;

/// The most remarks one rewrite emits per run (the synthesis has its own
/// cap per block, not counted here); the rest are counted in one remark.
const MAX_REMARKS: usize = 100;

/// Which of `lower-to-autollvm`'s options a rewrite reads (the shim
/// declares those, and only those, on its pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum OptionSet {
    /// `target`, `remarks`.
    Target = 0,
    /// Also `cache-dir` and `proof-ms`: the rewrite proves what it does.
    Proof = 1,
    /// Also the search's budgets: `window-ms`, `block-ms`, `max-ops`,
    /// `two-step-budget`.
    Search = 2,
}

type Run = for<'c> fn(&'c Context, OperationRef<'c, 'c>, &Options, bool) -> Result<(), Failure>;

/// One rewrite: its pass argument, its `--help` line, its options, and the
/// function that runs it over a root op.
pub struct Rewrite {
    pub argument: &'static str,
    pub description: &'static str,
    pub options: OptionSet,
    run: Run,
}

/// Every rewrite, in `lower-to-autollvm`'s order.
pub const REWRITES: [Rewrite; 12] = [
    Rewrite {
        argument: "hydride-contract-elementwise",
        description:
            "Write vector.contract ops with identity operand maps as arith.muli and vector.multi_reduction, the \
                      form the synthesis searches",
        options: OptionSet::Target,
        run: run_contract_elementwise,
    },
    Rewrite {
        argument: "hydride-private-extensions",
        description: "Copy a vector extension that several ops of its block read once per reader, so each reader's \
                      window sees the narrow value (register-blocked products share one extended operand)",
        options: OptionSet::Target,
        run: run_private_extensions,
    },
    Rewrite {
        argument: "hydride-even-odd",
        description:
            "Write a 4-way u8 x s8 dot product as two 2-way dot products of the even and odd bytes, where the \
                      target's grammar has no instruction for the whole and a proved identity for the halves",
        options: OptionSet::Target,
        run: run_even_odd,
    },
    Rewrite {
        argument: "hydride-sum-as-dot",
        description: "Write sums of groups of extended elements as dot products with ones (proved equal), so the \
                      synthesis can give them a dot-product instruction",
        options: OptionSet::Proof,
        run: run_sum_as_dot,
    },
    Rewrite {
        argument: "hydride-split-contract",
        description: "Split vector.contract ops wider than the target's registers into register-sized tiles",
        options: OptionSet::Target,
        run: run_split_contract,
    },
    Rewrite {
        argument: "hydride-equal-weights",
        description: "Factor sums of products of zero-extended bytes by constant weights by weight, the bytes of each \
                      weight summed in 16-bit lanes (proved equal)",
        options: OptionSet::Proof,
        run: run_equal_weights,
    },
    Rewrite {
        argument: "hydride-deinterleaved-extrema",
        description: "Take extrema over both halves of deinterleaved vectors before the deinterleave (proved equal)",
        options: OptionSet::Proof,
        run: run_deinterleaved_extrema,
    },
    Rewrite {
        argument: "hydride-divide-by-constant",
        description: "Divide unsigned vector lanes by a constant as a multiply-high, a rounding average and a shift \
                      where LLVM's lowering needs its fix-up and the target averages in one instruction (proved \
                      equal)",
        options: OptionSet::Proof,
        run: run_divide_by_constant,
    },
    Rewrite {
        argument: "hydride-synthesize",
        description: "Replace windows of arith/vector dataflow by autollvm class ops found by synthesis over the \
                      target's grammar and proved equal by Z3",
        options: OptionSet::Search,
        run: run_synthesize,
    },
    Rewrite {
        argument: "hydride-in-place-widening",
        description: "Compute extend-compute-truncate regions on the narrow elements where they lie in the wide \
                      lanes, where the target's cost model prefers it (proved equal)",
        options: OptionSet::Proof,
        run: run_in_place_widening,
    },
    Rewrite {
        argument: "hydride-column-extrema",
        description: "Take extrema over rectangles of stencil taps column by column: two columns loaded, the others \
                      shuffled from them (proved equal)",
        options: OptionSet::Proof,
        run: run_column_extrema,
    },
    Rewrite {
        argument: "hydride-piece-order",
        description: "Compute lane-wise regions wider than the target's registers one register-sized piece after \
                      the other (proved equal)",
        options: OptionSet::Proof,
        run: run_piece_order,
    },
];

/// Runs `rewrite` over `root`, its remarks capped at [`MAX_REMARKS`];
/// `Err` once an error is emitted.
pub fn run<'c>(
    rewrite: &Rewrite,
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<(), ()> {
    raw::cap_remarks(MAX_REMARKS);
    let result = (rewrite.run)(context, root, options, remarks);
    let unshown = raw::uncap_remarks();
    if unshown > 0 && remarks {
        let text = format!("{}: {unshown} more remarks not shown (at most {MAX_REMARKS} per run)", rewrite.argument);
        raw::emit(&root, true, &text);
    }
    match result {
        Ok(()) => Ok(()),
        Err(Failure::Reported) => Err(()),
        Err(Failure::Rewrite(e)) => {
            raw::emit(&root, false, &format!("{}: {e}", rewrite.argument));
            Err(())
        }
    }
}

fn run_contract_elementwise<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    _: &Options,
    _: bool,
) -> Result<(), Failure> {
    Ok(contract_elementwise::run(c, root)?)
}

fn run_private_extensions<'c>(
    _: &'c Context,
    root: OperationRef<'c, 'c>,
    _: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    let copies = private_extensions::run(root)?;
    if remarks && copies > 0 {
        let noun = if copies == 1 { "copy" } else { "copies" };
        raw::emit(
            &root,
            true,
            &format!("hydride-private-extensions: {copies} {noun} of extensions shared by products"),
        );
    }
    Ok(())
}

fn run_even_odd<'c>(c: &'c Context, root: OperationRef<'c, 'c>, o: &Options, _: bool) -> Result<(), Failure> {
    let grammar = Grammar::embedded(o.limits.target.isa())?;
    Ok(even_odd::run(c, root, grammar, (o.limits.target, o.limits.cpu))?)
}

fn run_sum_as_dot<'c>(c: &'c Context, root: OperationRef<'c, 'c>, o: &Options, remarks: bool) -> Result<(), Failure> {
    sum_as_dot::run(c, root, o, remarks)?;
    Ok(())
}

fn run_split_contract<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    Ok(split_contract::run(c, root, o.limits.target.register_bits(), remarks)?)
}

fn run_equal_weights<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    equal_weights::run(c, root, o, remarks)?;
    Ok(())
}

fn run_deinterleaved_extrema<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    deinterleaved_extrema::run(c, root, o, remarks)?;
    Ok(())
}

fn run_divide_by_constant<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    divide_by_constant::run(c, root, o, remarks)?;
    Ok(())
}

fn run_synthesize<'c>(c: &'c Context, root: OperationRef<'c, 'c>, o: &Options, remarks: bool) -> Result<(), Failure> {
    synthesize::run(c, root, o, remarks)
}

fn run_in_place_widening<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    in_place_widening::run(c, root, o, remarks)?;
    Ok(())
}

fn run_column_extrema<'c>(
    c: &'c Context,
    root: OperationRef<'c, 'c>,
    o: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    column_extrema::run(c, root, o, remarks)?;
    Ok(())
}

fn run_piece_order<'c>(c: &'c Context, root: OperationRef<'c, 'c>, o: &Options, remarks: bool) -> Result<(), Failure> {
    piece_order::run(c, root, o, remarks)?;
    Ok(())
}
