//! Width legalization: a lane-wise window wider than the target's vector
//! registers is synthesized once, at the width of one register-sized piece,
//! and the program found is applied to every piece.
//!
//! Sound because the window is lane-wise: every op computes result lane `i`
//! from lane `i` of its operands alone, by the same function in every lane,
//! and its constants repeat piece by piece. So piece `p` of the window's
//! result is the piece window applied to piece `p` of each leaf, and the
//! program, proved equal to the piece window like any other, computes it.
//! One proof per piece shape, not one per piece.

use super::block::{BlockOp, Dataflow, Window};
use super::lower::{NewOp, Ref};
use super::types::Ty;
use crate::synth::attr::{Attr, NewAttr};
use std::collections::HashMap;

/// Ops whose result lane `i` is a function of their operands' lane `i` only
/// (lanes counted row-major: `vector.shape_cast` keeps every lane in place).
const LANE_WISE: &[&str] = &[
    "arith.constant",
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.ceildivsi",
    "arith.floordivsi",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
    "arith.extsi",
    "arith.extui",
    "arith.trunci",
    "arith.cmpi",
    "arith.select",
    "vector.shape_cast",
];

/// Ops other than lane-wise ones that may read a window's result when it is
/// cut: stores and returns, which take the concatenation as it is.
const CONSUMERS: &[&str] = &["vector.store", "vector.maskedstore", "vector.transfer_write", "func.return", "scf.yield"];

/// How a window is cut: `pieces` pieces of `lanes` lanes each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub pieces: u32,
    pub lanes: u32,
}

/// The window as one piece: its ops (in block order, positions renumbered,
/// values kept) at `split.lanes` lanes, constants cut to their first
/// piece, and the root's new position. `None` where the window is not
/// lane-wise over vectors of one lane count (cut as their row-major
/// flattenings), fits the
/// registers already, cannot be cut into a power-of-two count of pieces
/// whose leaves and result fit a register, or has a constant that differs
/// from piece to piece.
pub fn piece_block(flow: &Dataflow, window: &Window, register_bits: u32) -> Option<(Vec<BlockOp>, usize, Split)> {
    let ops: Vec<&BlockOp> = window.ops.iter().map(|&p| &flow.ops[p]).collect();
    // An n-D window is cut as its row-major flattening: lane-wise, the shape
    // does not matter, and a shape_cast is the identity on the flattening.
    let mut lanes = None;
    let mut widest = 0;
    for op in &ops {
        if !LANE_WISE.contains(&op.name.as_str()) || op.results.len() != 1 || !op.unmodelled_vectors.is_empty() {
            return None;
        }
        for t in op.operand_types.iter().chain(&op.result_types) {
            let t = t.as_ref()?;
            if t.dims.is_empty() || *lanes.get_or_insert(t.lanes()) != t.lanes() {
                return None;
            }
        }
    }
    let all = lanes?;
    // A result that feeds a reshape or a reduction stays whole: LLVM fuses a
    // widening product into the reduction after it (`smlal`, `vpmaddwd`),
    // which pieces would hide behind their concatenation.
    // Reshapes are followed to what reads their results.
    let result = flow.ops[window.root].results[0];
    let whole = |op: &BlockOp| LANE_WISE.contains(&op.name.as_str()) || CONSUMERS.contains(&op.name.as_str());
    let mut reads = vec![result];
    while let Some(v) = reads.pop() {
        for op in flow.ops.iter().filter(|op| op.operands.contains(&v)) {
            if op.name == "vector.shape_cast" {
                reads.extend(op.results.iter().copied());
            } else if !whole(op) {
                return None;
            }
        }
    }
    // The piece is sized by what crosses its boundary: the leaves and the result.
    let root_ty = flow.ops[window.root].result_types[0].clone()?;
    if root_ty.bits() <= register_bits {
        return None;
    }
    for v in &window.leaves {
        widest = widest.max(flow.type_of(*v)?.elem_bits);
    }
    widest = widest.max(root_ty.elem_bits);
    let mut piece = (register_bits / widest.max(1)).min(all);
    while piece > 1 && all % piece != 0 {
        piece /= 2;
    }
    let pieces = all / piece.max(1);
    if piece < 2 || pieces < 2 || !pieces.is_power_of_two() {
        return None;
    }
    let split = Split { pieces, lanes: piece };
    let scaled = |t: &Option<Ty>| t.as_ref().map(|t| Ty { dims: vec![piece], elem_bits: t.elem_bits });
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let mut op = (*op).clone();
        op.index = i;
        op.operand_types = op.operand_types.iter().map(scaled).collect();
        op.result_types = op.result_types.iter().map(scaled).collect();
        if op.name == "arith.constant" {
            let value = op.attributes.iter_mut().find(|(n, _)| n == "value")?;
            let Attr::Elements(xs) = &value.1 else { return None };
            let first = &xs[..piece as usize];
            if xs.len() != all as usize || xs.chunks(piece as usize).any(|c| c != first) {
                return None;
            }
            value.1 = Attr::Elements(first.to_vec());
        }
        out.push(op);
    }
    let root = window.ops.iter().position(|&p| p == window.root)?;
    Some((out, root, split))
}

/// The ops that apply a piece's program (`piece_ops`, as
/// `lower::new_ops` made them over the piece window) to every piece of
/// the window: each leaf it reads cut into the piece (`vector.shuffle` of
/// its flattening),
/// the program, then the pieces' results concatenated pairwise into the
/// root's type. `full` gives each leaf's type in the block.
pub fn instantiate(
    piece_ops: &[NewOp],
    full: &dyn Fn(usize) -> Option<Ty>,
    split: Split,
    root: &Ty,
) -> Option<Vec<NewOp>> {
    let mut out: Vec<NewOp> = Vec::new();
    let mut results = Vec::new();
    let piece_ty = |elem_bits: u32, lanes: u32| Ty { dims: vec![lanes], elem_bits };
    for p in 0..split.pieces {
        let mut cut: HashMap<usize, usize> = HashMap::new();
        for (r, _) in piece_ops.iter().flat_map(|o| &o.operands) {
            let Ref::Value(v) = *r else { continue };
            if cut.contains_key(&v) {
                continue;
            }
            let t = full(v).map(|t| Ty { dims: vec![t.lanes()], elem_bits: t.elem_bits })?;
            let lo = i64::from(p * split.lanes);
            cut.insert(v, out.len());
            out.push(NewOp {
                op: "vector.shuffle".into(),
                attributes: vec![("mask".into(), NewAttr::I64s((lo..lo + i64::from(split.lanes)).collect()))],
                operands: vec![(Ref::Value(v), t.clone()), (Ref::Value(v), t.clone())],
                result: piece_ty(t.elem_bits, split.lanes),
            });
        }
        let offset = out.len();
        for op in piece_ops {
            let mut op = op.clone();
            for (r, _) in op.operands.iter_mut() {
                *r = match *r {
                    Ref::Value(v) => Ref::Step(cut[&v]),
                    Ref::Step(k) => Ref::Step(offset + k),
                };
            }
            out.push(op);
        }
        results.push((out.len() - 1, split.lanes));
    }
    while results.len() > 1 {
        let mut next = Vec::new();
        for pair in results.chunks(2) {
            let [(a, n), (b, _)] = pair else { return None };
            let t = piece_ty(root.elem_bits, *n);
            next.push((out.len(), 2 * n));
            out.push(NewOp {
                op: "vector.shuffle".into(),
                attributes: vec![("mask".into(), NewAttr::I64s((0..2 * i64::from(*n)).collect()))],
                operands: vec![(Ref::Step(*a), t.clone()), (Ref::Step(*b), t)],
                result: piece_ty(root.elem_bits, 2 * n),
            });
        }
        results = next;
    }
    Some(out)
}
