//! `lower-to-autollvm`: each block's `arith`/`vector` dataflow is read,
//! the synthesizer plans its rewrites (`crate::synth::lower`), and the plan
//! is applied here. Operands and results are reshaped where a class op sees
//! the same bits with another type.

use super::build::{self, Builder};
use super::raw;
use super::read;
use crate::synth::grammar::Grammar;
use crate::synth::lower::{lower_block, Options, Plan, Ref};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;
use std::collections::HashMap;

/// The most remarks the rewrites around synthesis emit per run (the
/// synthesis has its own cap per block, and its remarks are not counted
/// here); the rest are counted in one.
const MAX_REMARKS: usize = 100;

/// Rewrites every block under `root`; `Err` once an error is emitted.
pub fn run(context: &Context, root: OperationRef, options: &Options, remarks: bool) -> Result<(), ()> {
    raw::cap_remarks(MAX_REMARKS);
    let result = rewrite(context, root, options, remarks);
    let unshown = raw::uncap_remarks();
    if unshown > 0 && remarks {
        let text = format!("lower-to-autollvm: {unshown} more remarks not shown (at most {MAX_REMARKS} per run)");
        raw::emit(&root, true, &text);
    }
    result
}

fn rewrite(context: &Context, root: OperationRef, options: &Options, remarks: bool) -> Result<(), ()> {
    let grammar = match Grammar::embedded(options.limits.target.isa()) {
        Ok(g) => g,
        Err(e) => {
            raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
            return Err(());
        }
    };
    if let Err(e) = super::contract_elementwise::run(context, root) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    if let Err(e) = super::even_odd::run(context, root, grammar, options.limits.target) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    // After the even/odd rewrite, which is for products, not sums.
    if let Err(e) = super::sum_as_dot::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    if let Err(e) = super::split_contract::run(context, root, options.limits.target.register_bits(), remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    if let Err(e) = super::equal_weights::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    let blocks = raw::nested_blocks(root);
    if blocks.is_empty() && remarks {
        raw::emit(&root, true, "lower-to-autollvm: nothing to lower: no blocks (a declaration)");
    }
    // Extrema over the halves of deinterleaved rows, before the rows are
    // deinterleaved: the form synthesis then searches.
    if let Err(e) = super::deinterleaved_extrema::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    for block in blocks {
        let read = read::block(block);
        if read.ops.is_empty() {
            continue;
        }
        let plan = lower_block(&read.ops, grammar, options);
        // The synthesis caps its own remarks per block (and sums up the rest).
        raw::uncapped(|| apply(context, &plan, &read, remarks))?;
    }
    // What synthesis left of extend-compute-truncate regions, in place.
    if let Err(e) = super::in_place_widening::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    // Extrema over rectangles of taps that synthesis left, column by column.
    if let Err(e) = super::column_extrema::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    // Regions wider than the registers that are left lane by lane, piece by piece.
    if let Err(e) = super::piece_order::run(context, root, options, remarks) {
        raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        return Err(());
    }
    report_unusable_memo(root, options);
    Ok(())
}

/// One remark per process and memo directory that cannot be used: the
/// lowering goes on uncached, and the user learns why once, not per
/// function or per window.
fn report_unusable_memo(root: OperationRef, options: &Options) {
    static REPORTED: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let (Some(problem), Some(dir)) = (options.cache.problem(), options.cache.dir()) else { return };
    let mut reported = REPORTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if reported.iter().any(|d| d == dir) {
        return;
    }
    reported.push(dir.to_path_buf());
    let text =
        format!("lower-to-autollvm: the memo in {} is not used ({problem}); lowering goes on uncached", dir.display());
    raw::emit(&root, true, &text);
}

fn apply<'c, 'a>(context: &'c Context, plan: &Plan, read: &read::ReadBlock<'c, 'a>, remarks: bool) -> Result<(), ()> {
    if remarks {
        for (index, text) in &plan.remarks {
            raw::emit(&read.handles[*index], true, text);
        }
    }
    let mut window_ops: Vec<usize> = Vec::new();
    for rewrite in &plan.rewrites {
        let root = read.handles[rewrite.root];
        let fail = |e: String| {
            raw::emit(&root, false, &format!("lower-to-autollvm: {e}"));
        };
        let b = Builder::new(context, root);
        let mut created: Vec<Value> = Vec::new();
        // A value read twice as one type (a one-operand swizzle) is reshaped once.
        let mut reshaped: HashMap<(usize, String), Value> = HashMap::new();
        for new in &rewrite.ops {
            let mut operands = Vec::new();
            for (reference, ty) in &new.operands {
                let (key, v) = match *reference {
                    Ref::Value(n) => (n, read.values.get(n).copied()),
                    Ref::Step(k) => (usize::MAX - k, created.get(k).copied()),
                };
                let v = v.ok_or_else(|| fail(format!("the plan reads a value it has not got: {reference:?}")))?;
                let v = match reshaped.get(&(key, ty.to_string())) {
                    Some(v) => *v,
                    None => {
                        let r = b.reshape(v, ty).map_err(fail)?;
                        reshaped.insert((key, ty.to_string()), r);
                        r
                    }
                };
                operands.push(v);
            }
            let attributes: Vec<(&str, _)> =
                new.attributes.iter().map(|(n, a)| (n.as_str(), build::attribute(context, a))).collect();
            let result = build::mlir_type(context, &new.result);
            created.push(b.create(&new.op, &operands, &attributes, result).map_err(fail)?);
        }
        let last = *created.last().ok_or_else(|| fail("a rewrite in the plan creates nothing".into()))?;
        let old: Value = root.result(0).map_err(|e| fail(e.to_string()))?.into();
        let ty = read::ty(old.r#type()).ok_or_else(|| fail("the rewritten op's type is not an integer type".into()))?;
        let result = b.reshape(last, &ty).map_err(fail)?;
        raw::replace_all_uses(old, result);
        window_ops.extend(&rewrite.window);
    }
    // The replaced windows' ops, as far as nothing uses them any more
    // (erasing one can free another: repeat until none goes).
    window_ops.sort_unstable();
    window_ops.dedup();
    let mut pending: Vec<Option<OperationRef>> = window_ops.iter().map(|i| Some(read.handles[*i])).collect();
    let mut erased = true;
    while erased {
        erased = false;
        for slot in pending.iter_mut() {
            if let Some(op) = *slot {
                if op.results().all(|r| !raw::has_uses(r.into())) {
                    raw::erase(op);
                    *slot = None;
                    erased = true;
                }
            }
        }
    }
    Ok(())
}
