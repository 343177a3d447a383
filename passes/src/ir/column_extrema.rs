//! Extrema over a rectangle of taps, column by column.
//!
//! A stencil's maximum (or minimum) over a `W`-wide, `R`-high window reads
//! `R * W` overlapping vectors from memory, one per tap, and combines them
//! with `R * W - 1` ops: on Zen 4 the loads bound the loop. Every tap of a
//! column is the same vector one element further along, so the extremum of
//! the first column (`R` loads) and of the last (`R` loads) hold every
//! column between them: column `j` is the first column's elements from `j`
//! on, followed by the last column's (one two-source shuffle: a byte
//! permute of two tables, `vpermt2b` or `tbl`).
//! The window then costs `2R` loads, `2(R - 1) + W - 1` extrema and `W - 2`
//! shuffles, and reads only memory the taps read.
//!
//! A tree is rewritten where the CPU's model prices the new form cheaper,
//! each form with the loads it reads (`crate::synth::op_price`: a load and
//! a shuffle as LLVM selects them for the CPU); where the model prices
//! neither, where the ISA's tuning says the shuffles pay
//! (`Tuning::column_extrema_from_taps`). It is rewritten only where the
//! new form is proved equal to it over
//! the memory both read (each load is its row's elements from its offset
//! on, so overlapping loads share elements): Z3 proves the op a semilattice
//! at the element type and both forms reduce the same elements in every
//! lane (`crate::synth::semilattice`).

use super::build::Builder;
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::attr::Attr;
use crate::synth::block::{BlockOp, Dataflow, Window};
use crate::synth::lower::{proved_once, Options};
use crate::synth::op_price;
use crate::synth::proof::LeafElements;
use crate::synth::semilattice;
use crate::synth::target::{Cpu, Target};
use crate::synth::types::Ty;
use melior::ir::attribute::DenseI64ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::Value;
use melior::Context;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The most taps a tree may read (its proof grows with it).
const MAX_TAPS: usize = 256;

/// Whether the saved loads pay for the shuffles on `target`, for a window
/// `width` taps wide, by the ISA's tuning (see
/// [`crate::synth::target::Tuning`]): where the CPU's model prices neither form.
pub fn worthwhile(target: Target, width: u32) -> bool {
    width >= target.isa().tuning().column_extrema_from_taps
}

/// Rewrites the extremum trees of every block under `root`; how many.
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
            if tree.window.ops.iter().chain(tree.load_ops.iter().map(|(p, _)| p)).any(|p| erased.contains(p)) {
                continue;
            }
            let handle = read.handles[root];
            let left_alone = |why: &dyn std::fmt::Display| {
                if remarks {
                    let text = format!("hydride-column-extrema: extremum not taken column by column: {why}");
                    raw::emit(&handle, true, &text);
                }
            };
            let rect = match Rectangle::of(&tree) {
                Ok(rect) => rect,
                Err(why) => {
                    left_alone(&why);
                    continue;
                }
            };
            let new = NewForm::build(&flow, &tree, &rect, read.values.len());
            let priced = match taken(options, &flow, &tree, &rect, &new) {
                Ok(tail) => tail,
                Err(why) => {
                    left_alone(&why);
                    continue;
                }
            };
            let what = format!("column-extrema {:?} {}", rect.starts, rect.width);
            let proof = proved_once(options, &what, &flow, &tree.window, || {
                let left = tree.sources(&rect);
                let new_flow = Dataflow::new(&new.ops);
                let right = new.sources(&tree, &rect);
                semilattice::windows_equal_reading(
                    &tree.op_name(),
                    (&flow, &tree.window, &left),
                    (&new_flow, &new.window, &right),
                    options.limits.proof_ms,
                )
            });
            match proof {
                Ok(()) => {
                    if remarks {
                        let text = format!(
                            "hydride-column-extrema: {} over {} rows of {} taps taken column by column: {} loads instead of \
                             {} (proved equal){priced}",
                            tree.kind,
                            rect.starts.len(),
                            rect.width,
                            2 * rect.starts.len(),
                            tree.loads.len()
                        );
                        raw::emit(&handle, true, &text);
                    }
                    erased.extend(emit(context, &read, &tree, &new)?);
                    rewritten += 1;
                }
                Err(e) => left_alone(&e),
            }
        }
    }
    Ok(rewritten)
}

/// Whether the new form is taken: by the CPU's model ([`priced`]), else by
/// the ISA's tuning ([`worthwhile`]); the remark's tail, or why not.
fn taken(options: &Options, flow: &Dataflow, tree: &Tree, rect: &Rectangle, new: &NewForm) -> Result<String, String> {
    let target = options.limits.target;
    match priced(options.limits.cpu, flow, tree, rect, new) {
        Some(verdict) => verdict,
        None if !worthwhile(target, rect.width) => Err(format!(
            "{} taps wide, and at {} the shuffles pay for the saved loads from {} taps wide (the cpu's model prices \
             neither form)",
            rect.width,
            target.name(),
            target.isa().tuning().column_extrema_from_taps,
        )),
        None => Ok(String::new()),
    }
}

/// The two forms on `cpu`, each with the loads it reads
/// ([`op_price::verdict`]): the tree's `R * W` loads and extrema against
/// the columns' `2R` loads, extrema and shuffles.
fn priced(cpu: Cpu, flow: &Dataflow, tree: &Tree, rect: &Rectangle, new: &NewForm) -> Option<Result<String, String>> {
    let loads = tree.load_ops.iter().map(|(p, _)| *p);
    let before = op_price::cycles(cpu, flow, tree.window.ops.iter().copied().chain(loads).map(|p| &flow.ops[p]));
    let last = i64::from(rect.width) - 1;
    let column_loads = rect.starts.iter().flat_map(|s| [tree.loads[s], tree.loads[&(s + last)]]);
    let mut ops: Vec<BlockOp> = column_loads.map(|p| flow.ops[p].clone()).collect();
    ops.extend(new.ops.iter().cloned());
    op_price::verdict(cpu, before, op_price::cycles_of_new_form(cpu, flow, &ops), "column by column")
}

/// A tree of one extremum op over vectors loaded from one memref at
/// constant offsets from one index.
struct Tree {
    kind: String,
    /// The tree's ops, the root last; its leaves are the loaded vectors.
    window: Window,
    ty: Ty,
    /// Each leaf's offset (in elements).
    offsets: HashMap<usize, i64>,
    /// The load op of each offset.
    loads: BTreeMap<i64, usize>,
    /// Every load op it reads, and the op computing each one's index.
    load_ops: BTreeSet<(usize, Option<usize>)>,
}

impl Tree {
    /// The tree whose root is `root`: an extremum op not itself read by
    /// one op of its kind alone (that op's tree holds it), whose operands
    /// are computed by ops of its kind read only there, down to loads.
    /// `None` where `root` is no such tree's root or it reads other values.
    fn find(flow: &Dataflow, root: usize) -> Option<Tree> {
        let (inside, leaves) = semilattice::tree(flow, root, 2 * MAX_TAPS)?;
        let op = &flow.ops[root];
        let ty = op.result_types[0].clone()?;
        if ty.dims.len() != 1 || ty.dims[0] < 2 {
            return None;
        }
        if !leaves.iter().all(|v| flow.defining_op(*v).is_some_and(|d| flow.ops[d].name == "vector.load")) {
            return None;
        }
        // One memref, one index, constant offsets.
        let mut source: Option<(usize, usize)> = None;
        let mut offsets = HashMap::new();
        let mut loads = BTreeMap::new();
        let mut load_ops = BTreeSet::new();
        for v in leaves {
            let def = flow.defining_op(v)?;
            let load = &flow.ops[def];
            if load.operands.len() != 2 || load.result_types.first()? != &Some(ty.clone()) {
                return None;
            }
            let (base, offset) = base_and_offset(flow, load.operands[1]);
            if *source.get_or_insert((load.operands[0], base)) != (load.operands[0], base) {
                return None;
            }
            offsets.insert(v, offset);
            loads.entry(offset).or_insert(def);
            load_ops.insert((def, flow.defining_op(load.operands[1]).filter(|&i| flow.ops[i].name == "arith.addi")));
        }
        if loads.len() > MAX_TAPS {
            return None;
        }
        let window = flow.close(inside, root);
        Some(Tree { kind: op.name.trim_start_matches("arith.").to_string(), window, ty, offsets, loads, load_ops })
    }

    fn op_name(&self) -> String {
        format!("arith.{}", self.kind)
    }

    /// Each leaf's elements: its row, from its offset within the row.
    fn sources(&self, rect: &Rectangle) -> Vec<LeafElements> {
        self.window.leaves.iter().map(|v| rect.place(self.offsets[v])).collect()
    }
}

/// `index` as a base value and a constant offset: `base + c`, `c + base`
/// (`c` an `arith.constant`) or the index itself.
pub(super) fn base_and_offset(flow: &Dataflow, index: usize) -> (usize, i64) {
    let constant = |v: usize| match flow.constant(v).and_then(|c| c.attribute("value")) {
        Some(Attr::Int(x)) => i64::try_from(x).ok(),
        _ => None,
    };
    if let Some(def) = flow.defining_op(index) {
        let op = &flow.ops[def];
        if op.name == "arith.addi" && op.operands.len() == 2 {
            if let Some(c) = constant(op.operands[1]) {
                return (op.operands[0], c);
            }
            if let Some(c) = constant(op.operands[0]) {
                return (op.operands[1], c);
            }
        }
    }
    (index, 0)
}

/// Why a tree's taps are not rows a column-by-column extremum pays for.
#[derive(Debug, thiserror::Error)]
enum NotRectangle {
    /// The widths of its rows of consecutive taps.
    #[error("its rows of consecutive taps differ in width ({0:?})")]
    RaggedRows(Vec<u32>),
    #[error("{rows} rows of {width} taps share too little")]
    TooSmall { rows: usize, width: u32 },
    #[error("its rows are wider than a vector ({width} taps, {lanes} lanes)")]
    WiderThanVector { width: u32, lanes: u32 },
}

/// The taps as rows of `width` consecutive offsets.
struct Rectangle {
    /// Each row's first offset, ascending.
    starts: Vec<i64>,
    width: u32,
}

impl Rectangle {
    fn of(tree: &Tree) -> Result<Rectangle, NotRectangle> {
        let mut starts: Vec<i64> = Vec::new();
        let mut widths: Vec<u32> = Vec::new();
        for &o in tree.loads.keys() {
            match starts.last() {
                Some(&s) if o == s + i64::from(*widths.last().expect("a width per row")) => {
                    *widths.last_mut().expect("a width per row") += 1;
                }
                _ => {
                    starts.push(o);
                    widths.push(1);
                }
            }
        }
        let width = widths[0];
        if widths.iter().any(|w| *w != width) {
            return Err(NotRectangle::RaggedRows(widths));
        }
        if starts.len() < 2 || width < 3 {
            return Err(NotRectangle::TooSmall { rows: starts.len(), width });
        }
        if width - 1 > tree.ty.lanes() {
            return Err(NotRectangle::WiderThanVector { width, lanes: tree.ty.lanes() });
        }
        Ok(Rectangle { starts, width })
    }

    /// Where the load at `offset` reads: its row, from its column on.
    fn place(&self, offset: i64) -> LeafElements {
        let row = self.starts.iter().rposition(|s| *s <= offset).expect("an offset of the rectangle");
        LeafElements { source: row, first: u32::try_from(offset - self.starts[row]).expect("a column of the row") }
    }
}

/// The tree column by column, as ops of the synthesizer's dataflow.
struct NewForm {
    ops: Vec<BlockOp>,
    window: Window,
    ty: Ty,
    next_value: usize,
}

impl NewForm {
    /// New values are numbered from `first_value` on.
    fn build(flow: &Dataflow, tree: &Tree, rect: &Rectangle, first_value: usize) -> NewForm {
        let mut new = NewForm {
            ops: Vec::new(),
            window: Window { ops: Vec::new(), leaves: Vec::new(), root: 0 },
            ty: tree.ty.clone(),
            next_value: first_value,
        };
        let name = format!("arith.{}", tree.kind);
        let last = i64::from(rect.width) - 1;
        // A column's extremum over the rows.
        let column = |new: &mut NewForm, dx: i64| {
            let loaded = |s: &i64| flow.ops[tree.loads[&(s + dx)]].results[0];
            let mut rows = rect.starts.iter().map(loaded);
            let first = rows.next().expect("at least two rows");
            rows.fold(first, |acc, v| new.push(&name, vec![acc, v], Vec::new()))
        };
        let first = column(&mut new, 0);
        let final_column = column(&mut new, last);
        let lanes = i64::from(tree.ty.lanes());
        let mut result = first;
        for j in 1..last {
            // Element i of column j: the first column's element i + j while
            // there is one, then the last column's element i + j - last.
            let mask: Vec<i64> = (0..lanes).map(|i| if i + j < lanes { i + j } else { lanes + i + j - last }).collect();
            let inner = new.push("vector.shuffle", vec![first, final_column], vec![("mask".into(), Attr::Ints(mask))]);
            result = new.push(&name, vec![result, inner], Vec::new());
        }
        new.push(&name, vec![result, final_column], Vec::new());
        new.window = Dataflow::new(&new.ops).close((0..new.ops.len()).collect(), new.ops.len() - 1);
        new
    }

    fn push(&mut self, name: &str, operands: Vec<usize>, attributes: Vec<(String, Attr)>) -> usize {
        let value = self.next_value;
        self.next_value += 1;
        self.ops.push(BlockOp {
            index: self.ops.len(),
            name: name.to_string(),
            operand_types: vec![Some(self.ty.clone()); operands.len()],
            operands,
            results: vec![value],
            result_types: vec![Some(self.ty.clone())],
            attributes,
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        });
        value
    }

    fn sources(&self, tree: &Tree, rect: &Rectangle) -> Vec<LeafElements> {
        self.window.leaves.iter().map(|v| rect.place(tree.offsets[v])).collect()
    }
}

/// Creates the new form before the tree's root, replaces the root's result
/// and erases the tree and the loads nothing reads any more; the positions
/// erased.
fn emit<'c>(
    context: &'c Context,
    read: &ReadBlock<'c, '_>,
    tree: &Tree,
    new: &NewForm,
) -> Result<Vec<usize>, RewriteError> {
    let root = read.handles[tree.window.root];
    let b = Builder::new(context, root);
    let ty = super::build::mlir_type(context, &tree.ty);
    let mut values: HashMap<usize, Value> = new.window.leaves.iter().map(|v| (*v, read.values[*v])).collect();
    for op in &new.ops {
        let operands = super::build::made_operands(&values, &op.operands)?;
        let attributes = match op.attribute("mask") {
            Some(Attr::Ints(mask)) => vec![("mask", DenseI64ArrayAttribute::new(context, mask).into())],
            _ => Vec::new(),
        };
        let v = b.create(&op.name, &operands, &attributes, ty)?;
        values.insert(op.results[0], v);
    }
    let last = new.ops.last().ok_or(RewriteError::Invariant("an empty new form"))?.results[0];
    let old: Value = root.result(0)?.into();
    raw::replace_all_uses(old, values[&last]);
    let mut erased = Vec::new();
    for &pos in tree.window.ops.iter().rev() {
        raw::erase(read.handles[pos]);
        erased.push(pos);
    }
    // The loads nothing reads any more, and then their index computations.
    let unused = |pos: usize| read.handles[pos].results().all(|r| !raw::has_uses(r.into()));
    for &(pos, index) in &tree.load_ops {
        if !unused(pos) {
            continue;
        }
        raw::erase(read.handles[pos]);
        erased.push(pos);
        if let Some(i) = index.filter(|i| !erased.contains(i) && unused(*i)) {
            raw::erase(read.handles[i]);
            erased.push(i);
        }
    }
    Ok(erased)
}
