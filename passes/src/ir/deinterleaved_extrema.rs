//! Extrema over both halves of deinterleaved vectors, taken before the
//! deinterleave.
//!
//! A 2x2 max pool reads two rows, splits each into its even and odd lanes
//! (`vector.deinterleave`) and combines the four halves:
//! `max(even(a), odd(a), even(b), odd(b))`. The extremum is lane-wise and
//! a deinterleave only moves lanes, so that is `max(even(m), odd(m))` with
//! `m = max(a, b)`: one deinterleave instead of one per row, the rows
//! combined at full width (the same instructions for twice the lanes).
//!
//! A tree is rewritten only where the new form is proved equal to it: Z3
//! proves the op a semilattice at the element type and both forms reduce
//! the same elements of the rows in every lane (`crate::synth::semilattice`).
//! It runs before synthesis, which then searches the new form, and is made
//! where the new form is cheaper on the target CPU's model (`cpu=`, a
//! deinterleave of a load priced as LLVM folds the two, into one
//! structured load where the target has one), or, where the model does
//! not price both forms, where the target's tuning says a deinterleave is
//! not free with its load.

use super::build::{mlir_type, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::block::{BlockOp, Dataflow, Window};
use crate::synth::lower::{proved_once, Options};
use crate::synth::op_price;
use crate::synth::proof::LeafElements;
use crate::synth::semilattice;
use crate::synth::target::Target;
use crate::synth::types::Ty;
use melior::ir::Value;
use melior::Context;
use std::collections::{BTreeSet, HashMap, HashSet};

const DEINTERLEAVE: &str = "vector.deinterleave";

/// The most ops and halves a tree may hold (its proof grows with it).
const MAX_OPS: usize = 512;

/// Whether one deinterleave of the combined rows is cheaper than one per
/// row on `target` (see [`crate::synth::target::Tuning`]).
pub fn worthwhile(target: Target) -> bool {
    !target.isa().tuning().deinterleave_free_with_load
}

/// Whether the new form is the one to take: cheaper on the CPU's model
/// where that prices both (the text for the remark), else where the
/// target's tuning says; or why not.
fn verdict(options: &Options, flow: &Dataflow, tree: &Tree, new: &NewForm) -> Result<String, String> {
    let cpu = options.limits.cpu;
    let before = op_price::cycles(cpu, flow, tree.window.ops.iter().map(|&p| &flow.ops[p]));
    match op_price::verdict(cpu, before, op_price::cycles_of_new_form(cpu, flow, &new.ops), "deinterleaved once") {
        Some(priced) => priced,
        None if worthwhile(options.limits.target) => Ok(String::new()),
        None => Err(format!("at {} a deinterleave is free with its load (`ld2`)", options.limits.target.name())),
    }
}

/// Rewrites the trees of every block under `root`; how many.
pub fn run<'c>(
    context: &'c Context,
    root: melior::ir::OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let mut rewritten = 0;
    for block in raw::nested_blocks(root) {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        // Ops erased by an earlier rewrite of this block.
        let mut erased: HashSet<usize> = HashSet::new();
        for root in 0..read.ops.len() {
            let Some(tree) = Tree::find(&flow, root) else { continue };
            if tree.window.ops.iter().any(|p| erased.contains(p)) {
                continue;
            }
            let handle = read.handles[root];
            let new = NewForm::build(&tree, read.values.len());
            let verdict = match verdict(options, &flow, &tree, &new) {
                Ok(verdict) => verdict,
                Err(why) => {
                    if remarks {
                        let text = format!(
                            "hydride-deinterleaved-extrema: {} of {} deinterleaved vectors not taken before the deinterleave: \
                             {why}",
                            tree.kind,
                            tree.rows().len(),
                        );
                        raw::emit(&handle, true, &text);
                    }
                    continue;
                }
            };
            let what = format!("deinterleaved-extrema {}", tree.rows().len());
            let proof = proved_once(options, &what, &flow, &tree.window, || {
                let new_flow = Dataflow::new(&new.ops);
                semilattice::windows_equal_reading(
                    &tree.op_name(),
                    (&flow, &tree.window, &tree.sources(&tree.window)),
                    (&new_flow, &new.window, &tree.sources(&new.window)),
                    options.limits.proof_ms,
                )
            });
            match proof {
                Ok(()) => {
                    if remarks {
                        let text = format!(
                            "hydride-deinterleaved-extrema: {} of {} deinterleaved vectors taken before the deinterleave: 1 \
                             deinterleave instead of {} (proved equal){verdict}",
                            tree.kind,
                            tree.rows().len(),
                            tree.rows().len()
                        );
                        raw::emit(&handle, true, &text);
                    }
                    erased.extend(emit(context, &read, &tree, &new)?);
                    rewritten += 1;
                }
                Err(e) => {
                    if remarks {
                        let text = format!(
                            "hydride-deinterleaved-extrema: {} not taken before the deinterleave: {e}",
                            tree.kind
                        );
                        raw::emit(&handle, true, &text);
                    }
                }
            }
        }
    }
    Ok(rewritten)
}

/// A tree of one extremum op whose leaves are both halves of each of two
/// or more deinterleaved vectors of one type.
struct Tree {
    kind: String,
    /// The tree's ops and the deinterleaves, the root last; its leaves are
    /// the deinterleaved vectors.
    window: Window,
    /// The deinterleaves' positions.
    deinterleaves: Vec<usize>,
    /// The rows' type.
    ty: Ty,
}

impl Tree {
    /// The tree whose root is `root`: an extremum op not itself read by
    /// one op of its kind alone (that op's tree holds it), whose operands
    /// are computed by ops of its kind read only there, down to halves of
    /// deinterleaves read nowhere else. `None` where `root` is no such
    /// tree's root.
    fn find(flow: &Dataflow, root: usize) -> Option<Tree> {
        let (mut inside, leaves) = semilattice::tree(flow, root, MAX_OPS)?;
        let op = &flow.ops[root];
        let mut deinterleaves: BTreeSet<usize> = BTreeSet::new();
        for v in leaves {
            let def = flow.defining_op(v)?;
            let d = &flow.ops[def];
            if d.name != DEINTERLEAVE || d.results.len() != 2 {
                return None;
            }
            deinterleaves.insert(def);
        }
        if deinterleaves.len() < 2 {
            return None;
        }
        // Both halves of every deinterleave, read only inside the tree.
        let mut ty: Option<Ty> = None;
        for &d in &deinterleaves {
            let split = &flow.ops[d];
            if !split
                .results
                .iter()
                .all(|r| !flow.readers(*r).is_empty() && flow.readers(*r).iter().all(|p| inside.contains(p)))
            {
                return None;
            }
            let row = flow.type_of(*split.operands.first()?)?;
            if row.dims.len() != 1 || *ty.get_or_insert(row.clone()) != row {
                return None;
            }
        }
        inside.extend(&deinterleaves);
        let window = flow.close(inside, root);
        Some(Tree {
            kind: op.name.trim_start_matches("arith.").to_string(),
            deinterleaves: deinterleaves.into_iter().collect(),
            window,
            ty: ty?,
        })
    }

    /// The deinterleaved vectors (the window's leaves), in order of first use.
    fn rows(&self) -> &[usize] {
        &self.window.leaves
    }

    fn op_name(&self) -> String {
        format!("arith.{}", self.kind)
    }

    /// Each leaf of `window` (a row) as its own source, from its first
    /// element.
    fn sources(&self, window: &Window) -> Vec<LeafElements> {
        window
            .leaves
            .iter()
            .map(|v| LeafElements {
                source: self.rows().iter().position(|r| r == v).expect("a leaf is a row"),
                first: 0,
            })
            .collect()
    }
}

/// `op(rows...)` at full width, one deinterleave, `op(even, odd)`, as ops of
/// the synthesizer's dataflow.
struct NewForm {
    ops: Vec<BlockOp>,
    window: Window,
}

impl NewForm {
    /// New values are numbered from `first_value` on.
    fn build(tree: &Tree, first_value: usize) -> NewForm {
        let half = Ty { dims: vec![tree.ty.lanes() / 2], elem_bits: tree.ty.elem_bits };
        let name = tree.op_name();
        let mut ops: Vec<BlockOp> = Vec::new();
        let mut next = first_value;
        let mut push = |name: &str, operands: Vec<usize>, operand_ty: &Ty, results: Vec<Ty>| {
            let values: Vec<usize> = (next..next + results.len()).collect();
            next += results.len();
            ops.push(BlockOp {
                index: ops.len(),
                name: name.to_string(),
                operand_types: vec![Some(operand_ty.clone()); operands.len()],
                operands,
                results: values.clone(),
                result_types: results.into_iter().map(Some).collect(),
                attributes: Vec::new(),
                has_regions: false,
                unmodelled_vectors: Vec::new(),
            });
            values
        };
        let mut rows = tree.rows().iter().copied();
        let first = rows.next().expect("two rows or more");
        let combined = rows.fold(first, |acc, r| push(&name, vec![acc, r], &tree.ty, vec![tree.ty.clone()])[0]);
        let halves = push(DEINTERLEAVE, vec![combined], &tree.ty, vec![half.clone(), half.clone()]);
        push(&name, halves, &half, vec![half.clone()]);
        let window = Dataflow::new(&ops).close((0..ops.len()).collect(), ops.len() - 1);
        NewForm { ops, window }
    }
}

/// Creates the new form before the tree's root, replaces the root's result
/// and erases the tree and its deinterleaves; the positions erased.
fn emit<'c>(
    context: &'c Context,
    read: &ReadBlock<'c, '_>,
    tree: &Tree,
    new: &NewForm,
) -> Result<Vec<usize>, RewriteError> {
    let root = read.handles[tree.window.root];
    let b = Builder::new(context, root);
    let mut values: HashMap<usize, Value> = new.window.leaves.iter().map(|v| (*v, read.values[*v])).collect();
    for op in &new.ops {
        let operands = super::build::made_operands(&values, &op.operands)?;
        let types: Vec<_> = op.result_types.iter().flatten().map(|t| mlir_type(context, t)).collect();
        let results = b.create_results(&op.name, &operands, &[], &types)?;
        values.extend(op.results.iter().copied().zip(results));
    }
    let last = new.ops.last().ok_or(RewriteError::Invariant("an empty new form"))?.results[0];
    let old: Value = root.result(0)?.into();
    raw::replace_all_uses(old, values[&last]);
    let mut erased = Vec::new();
    // The tree's ops, readers first, then the deinterleaves.
    for &pos in tree.window.ops.iter().rev().filter(|p| !tree.deinterleaves.contains(p)) {
        raw::erase(read.handles[pos]);
        erased.push(pos);
    }
    for &pos in &tree.deinterleaves {
        raw::erase(read.handles[pos]);
        erased.push(pos);
    }
    Ok(erased)
}
