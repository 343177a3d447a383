//! A block's dataflow as `lower-to-autollvm` reads it through the MLIR C
//! API (`crate::ir::read`), and the windows cut from it.
//!
//! Values are numbered in order of first appearance; a value no op of the
//! block defines (a block argument, a value from outside) is a leaf.

use super::attr::Attr;
use super::types::Ty;
use std::collections::{BTreeSet, HashMap};

/// The ops that read a vector from memory, and those that write one.
const MEMORY_READS: &[&str] = &["vector.load", "vector.transfer_read", "vector.maskedload"];
const MEMORY_WRITES: &[&str] = &["vector.store", "vector.transfer_write", "vector.maskedstore"];

#[derive(Clone, Debug, PartialEq)]
pub struct BlockOp {
    pub index: usize,
    pub name: String,
    pub operands: Vec<usize>,
    /// Each operand's type if it is an integer or a vector of integers.
    pub operand_types: Vec<Option<Ty>>,
    pub results: Vec<usize>,
    pub result_types: Vec<Option<Ty>>,
    pub attributes: Vec<(String, Attr)>,
    pub has_regions: bool,
    /// Vector types among its operands and results that synthesis does not
    /// model (floats, `index`, scalable or 0-d vectors), as MLIR prints them.
    pub unmodelled_vectors: Vec<String>,
}

impl BlockOp {
    /// The op with no attributes (a constant's elements not copied).
    pub fn clone_without_attributes(&self) -> BlockOp {
        BlockOp {
            index: self.index,
            name: self.name.clone(),
            operands: self.operands.clone(),
            operand_types: self.operand_types.clone(),
            results: self.results.clone(),
            result_types: self.result_types.clone(),
            attributes: Vec::new(),
            has_regions: self.has_regions,
            unmodelled_vectors: self.unmodelled_vectors.clone(),
        }
    }

    pub fn attribute(&self, name: &str) -> Option<&Attr> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// A connected set of ops ending in `root`, computing one value from leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    /// Op positions in the block, in block order (the root last).
    pub ops: Vec<usize>,
    /// Value numbers the window reads but does not compute, first use first.
    pub leaves: Vec<usize>,
    pub root: usize,
}

impl Window {
    /// The value its root computes (the first result of the root op).
    pub fn root_value(&self, flow: &Dataflow) -> Result<usize, RootWithoutResult> {
        flow.ops.get(self.root).and_then(|op| op.results.first().copied()).ok_or(RootWithoutResult)
    }
}

/// A window whose root op has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a root without a result")]
pub struct RootWithoutResult;

/// The dataflow of a block: who defines and who uses each value.
pub struct Dataflow<'a> {
    pub ops: &'a [BlockOp],
    defined_by: HashMap<usize, usize>,
    /// How many ops read each value.
    uses: HashMap<usize, usize>,
    /// The ops reading each value.
    users: HashMap<usize, Vec<usize>>,
    types: HashMap<usize, Option<Ty>>,
}

impl<'a> Dataflow<'a> {
    pub fn new(ops: &'a [BlockOp]) -> Dataflow<'a> {
        let mut defined_by = HashMap::new();
        let mut uses: HashMap<usize, usize> = HashMap::new();
        let mut users: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut types = HashMap::new();
        for (pos, op) in ops.iter().enumerate() {
            for (v, t) in op.results.iter().zip(&op.result_types) {
                defined_by.insert(*v, pos);
                types.insert(*v, t.clone());
            }
            // Uses count the ops that read a value (`x * x` reads it once).
            for (k, (v, t)) in op.operands.iter().zip(&op.operand_types).enumerate() {
                if !op.operands[..k].contains(v) {
                    *uses.entry(*v).or_default() += 1;
                    users.entry(*v).or_default().push(pos);
                }
                types.entry(*v).or_insert_with(|| t.clone());
            }
        }
        Dataflow { ops, defined_by, uses, users, types }
    }

    /// The position of the op defining `value`, if an op of the block does.
    pub fn defining_op(&self, value: usize) -> Option<usize> {
        self.defined_by.get(&value).copied()
    }

    /// Whether an op of the block reads `value` from memory (a load).
    pub fn loaded(&self, value: usize) -> bool {
        self.defining_op(value).is_some_and(|d| MEMORY_READS.contains(&self.ops[d].name.as_str()))
    }

    /// Whether `value` is read, and only by stores to memory.
    pub fn only_stored(&self, value: usize) -> bool {
        let readers = self.readers(value);
        !readers.is_empty() && readers.iter().all(|u| MEMORY_WRITES.contains(&self.ops[*u].name.as_str()))
    }

    /// The positions of the ops reading `value`.
    pub fn readers(&self, value: usize) -> &[usize] {
        self.users.get(&value).map_or(&[], Vec::as_slice)
    }

    pub fn type_of(&self, value: usize) -> Option<Ty> {
        self.types.get(&value).cloned().flatten()
    }

    /// The largest window ending at op `root` of ops `supported` accepts,
    /// each inner value read only inside the window (other results of its
    /// op read at most once), at most `max_ops` ops and `max_depth` levels
    /// deep. With `join_shared`, a value read more than once joins once
    /// all its readers have (`max(x, y) - min(x, y)` of extended `x` and `y`
    /// is one window).
    pub fn window(
        &self,
        root: usize,
        max_ops: usize,
        max_depth: usize,
        join_shared: bool,
        supported: &dyn Fn(&BlockOp) -> bool,
    ) -> Window {
        let mut inside: BTreeSet<usize> = BTreeSet::from([root]);
        let mut frontier = vec![(root, 0usize)];
        // Ops whose value is read more than once, with the depth they were met at.
        let mut waiting: Vec<(usize, usize)> = Vec::new();
        loop {
            while let Some((pos, depth)) = frontier.pop() {
                if depth + 1 > max_depth {
                    continue;
                }
                for v in &self.ops[pos].operands {
                    let Some(&def) = self.defined_by.get(v) else { continue };
                    let op = &self.ops[def];
                    if inside.contains(&def) || !supported(op) || inside.len() >= max_ops {
                        continue;
                    }
                    // Used once, here; any other result of the op (a
                    // multi-result op's) used at most once too.
                    let single_use = self.uses.get(v) == Some(&1)
                        && op.results.iter().all(|r| self.uses.get(r).is_none_or(|n| *n <= 1));
                    if single_use || op.name == "arith.constant" {
                        inside.insert(def);
                        frontier.push((def, depth + 1));
                    } else if join_shared && op.results.len() == 1 {
                        waiting.push((def, depth + 1));
                    }
                }
            }
            let ready = waiting.iter().position(|(def, _)| {
                !inside.contains(def)
                    && self.ops[*def]
                        .results
                        .iter()
                        .all(|r| self.users.get(r).is_none_or(|u| u.iter().all(|p| inside.contains(p))))
            });
            match ready {
                Some(k) if inside.len() < max_ops => {
                    let (def, depth) = waiting.swap_remove(k);
                    inside.insert(def);
                    frontier.push((def, depth));
                }
                _ => break,
            }
        }
        self.close(inside, root)
    }

    /// The op defining `value` if it is an `arith.constant`.
    pub fn constant(&self, value: usize) -> Option<&BlockOp> {
        self.defined_by.get(&value).map(|&d| &self.ops[d]).filter(|op| op.name == "arith.constant")
    }

    /// The window with its constants as leaves (after the other leaves), so
    /// that an instruction can read a constant as an operand.
    pub fn lift_constants(&self, w: &Window) -> Window {
        let ops: Vec<usize> = w.ops.iter().copied().filter(|&p| self.ops[p].name != "arith.constant").collect();
        let lifted = self.close(ops.iter().copied().collect(), w.root);
        let (mut leaves, constants): (Vec<usize>, Vec<usize>) =
            lifted.leaves.iter().partition(|v| self.constant(**v).is_none());
        leaves.extend(constants);
        Window { ops, leaves, root: w.root }
    }

    /// The window of exactly the ops `inside`.
    pub fn close(&self, inside: BTreeSet<usize>, root: usize) -> Window {
        let ops: Vec<usize> = inside.iter().copied().collect();
        let mut leaves = Vec::new();
        for &pos in &ops {
            for v in &self.ops[pos].operands {
                let computed = self.defined_by.get(v).is_some_and(|d| inside.contains(d));
                if !computed && !leaves.contains(v) {
                    leaves.push(*v);
                }
            }
        }
        Window { ops, leaves, root }
    }
}
