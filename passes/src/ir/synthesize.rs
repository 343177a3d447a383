//! `hydride-synthesize`: each block's `arith`/`vector` dataflow is read,
//! the synthesizer plans its rewrites (`crate::synth::lower`), and the plan
//! is applied here. Operands and results are reshaped where a class op sees
//! the same bits with another type.

use super::build::{self, Builder};
use super::failure::Failure;
use super::raw;
use super::read;
use crate::synth::grammar::Grammar;
use crate::synth::lower::{lower_block, Options};
use crate::synth::plan::{Plan, Ref};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;
use std::collections::HashMap;

/// Synthesizes every block under `root`; `Err` once an error is emitted.
pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<(), Failure> {
    let grammar = Grammar::embedded(options.limits.target.isa())?;
    let blocks = raw::nested_blocks(root);
    if blocks.is_empty() && remarks {
        raw::emit(&root, true, "hydride-synthesize: nothing to lower: no blocks (a declaration)");
    }
    for block in blocks {
        let read = read::block(block);
        if read.ops.is_empty() {
            continue;
        }
        let plan = lower_block(&read.ops, grammar, options);
        // The synthesis caps its own remarks per block (and sums up the rest).
        raw::uncapped(|| apply(context, &plan, &read, remarks)).map_err(|()| Failure::Reported)?;
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
        format!("hydride-synthesize: the memo in {} is not used ({problem}); lowering goes on uncached", dir.display());
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
        let fail = |e: &dyn std::fmt::Display| {
            raw::emit(&root, false, &format!("hydride-synthesize: {e}"));
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
                let v = v.ok_or_else(|| fail(&format_args!("the plan reads a value it has not got: {reference:?}")))?;
                let v = match reshaped.get(&(key, ty.to_string())) {
                    Some(v) => *v,
                    None => {
                        let r = b.reshape(v, ty).map_err(|e| fail(&e))?;
                        reshaped.insert((key, ty.to_string()), r);
                        r
                    }
                };
                operands.push(v);
            }
            let attributes: Vec<(&str, _)> =
                new.attributes.iter().map(|(n, a)| (n.as_str(), build::attribute(context, a))).collect();
            let result = build::mlir_type(context, &new.result);
            created.push(b.create(&new.op, &operands, &attributes, result).map_err(|e| fail(&e))?);
        }
        let last = *created.last().ok_or_else(|| fail(&"a rewrite in the plan creates nothing"))?;
        let old: Value = root.result(0).map_err(|e| fail(&e))?.into();
        let ty = read::ty(old.r#type()).ok_or_else(|| fail(&"the rewritten op's type is not an integer type"))?;
        let result = b.reshape(last, &ty).map_err(|e| fail(&e))?;
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
