//! Width legalization: a window wider than the target's vector registers
//! whose pieces are independent is synthesized once, at the width of one
//! register-sized piece, and the program found is applied to every piece.
//!
//! Every value of the window is cut into the same number of pieces, `P`,
//! each a contiguous run of its lanes (row-major). The window qualifies when
//! piece `q` of every op's result is the same function of piece `q` of its
//! operands, for every `q`:
//! - lane-wise ops compute result lane `i` from lane `i` of their operands
//!   alone, by the same function in every lane;
//! - a `vector.shuffle` qualifies when each result piece reads only the
//!   same piece of its operands, at the same positions within it for every
//!   piece (the even/odd lanes of a pairwise sum, interleaves within
//!   pieces);
//! - a `vector.deinterleave` of a 1-D vector qualifies: piece `q` of its
//!   even (odd) result is the even (odd) lanes of piece `q` of its operand,
//!   a piece having an even number of lanes (a 2x2 pool's sums of pairs
//!   of columns: one pairwise widening add per piece at a 128-bit target);
//!   taken where each piece of the result fills a register;
//! - a `vector.multi_reduction` over the inner dimension of a 2-D vector
//!   qualifies when the pieces cut its rows: piece `q` of the result (and
//!   of the accumulator) is the reduction of piece `q` of the rows (a 4-way
//!   dot product of 512 bits at a 128-bit target: four `usdot`);
//! - constants repeat piece by piece.
//!
//! So piece `q` of the window's result is the piece window applied to piece
//! `q` of each leaf, and the program, proved equal to the piece window like
//! any other, computes it. One proof per piece shape, not one per piece.
//!
//! The other way round, a lane-wise window narrower than the registers, on
//! a target with no instruction of its width (one whose instructions are
//! all a register or two wide), is synthesized at `F` times its lanes, `F` the power of two
//! that makes its widest leaf or result fill a register ([`widened_block`]):
//! each leaf repeated `F` times, the program, then the result's first `F`th.
//! Lane `i` of a lane-wise window reads lane `i` of its leaves alone, so the
//! first `F`th of the wide window's result is the window's; a reduction of
//! each row has its rows repeated, and row `i` of its result reads row `i`
//! alone.

use super::block::{BlockOp, Dataflow, Window};
use super::plan::{NewOp, Ref};
use super::types::Ty;
use crate::synth::attr::{Attr, NewAttr};
use std::collections::HashMap;

/// Ops whose result lane `i` is a function of their operands' lane `i` only
/// (lanes counted row-major: `vector.shape_cast` keeps every lane in place).
pub const LANE_WISE: &[&str] = &[
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

/// The reduction a piece may hold: of the inner dimension of a 2-D vector
/// into its rows (see [`rows_reduced`]).
const ROWS_REDUCED: &str = "vector.multi_reduction";

/// `Some` if `op`, a `vector.multi_reduction`, reduces the inner dimension
/// of a 2-D vector (with an accumulator of its rows' count, if any): each
/// result lane reads its own row alone, so cutting the rows cuts it into
/// independent pieces.
fn rows_reduced(op: &BlockOp) -> Option<()> {
    let source = op.operand_types.first()?.as_ref()?;
    let result = op.result_types.first()?.as_ref()?;
    let dims = op.attribute("reduction_dims").and_then(Attr::ints)?;
    let rows_kept = source.dims.len() == 2 && dims == [1] && result.dims == source.dims[..1];
    let accumulator_fits = op.operand_types.iter().skip(1).all(|t| t.as_ref() == Some(result));
    (rows_kept && accumulator_fits).then_some(())
}

/// Even and odd lanes, the one op with two results a piece may hold.
const DEINTERLEAVE: &str = "vector.deinterleave";

/// Ops other than lane-wise ones that may read a window's result when it is
/// cut: stores and returns, which take the concatenation as it is.
const CONSUMERS: &[&str] = &["vector.store", "vector.maskedstore", "vector.transfer_write", "func.return", "scf.yield"];

/// How a window is cut: into `pieces` pieces, each value's lanes evenly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub pieces: u32,
}

/// A shuffle's mask within one piece, if every piece of the result reads
/// the same piece of the operands (`lanes` each, two operands in a row) at
/// the same positions: positions into the two operand pieces in a row.
fn piece_mask(mask: &[i64], lanes: u32, pieces: u32) -> Option<Vec<i64>> {
    let (out_piece, in_piece) = (mask.len() as u32 / pieces, lanes / pieces);
    if mask.len() as u32 % pieces != 0 || lanes % pieces != 0 {
        return None;
    }
    let mut first: Option<Vec<i64>> = None;
    for (q, chunk) in mask.chunks(out_piece as usize).enumerate() {
        let q = q as u32;
        let relative: Vec<i64> = chunk
            .iter()
            .map(|&m| {
                let m = u32::try_from(m).ok()?;
                let (operand, lane) = (m / lanes, m % lanes);
                let within = lane.checked_sub(q * in_piece).filter(|&l| operand < 2 && l < in_piece)?;
                Some(i64::from(operand * in_piece + within))
            })
            .collect::<Option<_>>()?;
        match &first {
            None => first = Some(relative),
            Some(f) if *f == relative => {}
            Some(_) => return None,
        }
    }
    first
}

/// The window as one piece: its ops (in block order, positions renumbered,
/// values kept) with every value's lanes divided by the piece count (as
/// its row-major flattening, or, with a reduction of each row, its rows),
/// shuffle masks and constants cut to their first piece, and the root's
/// new position. `None` where the window has an op whose pieces are not
/// independent (see the module's description), fits the registers already,
/// or cannot be cut into a power-of-two count of pieces whose leaves and
/// result fit a register.
pub fn piece_block(flow: &Dataflow, window: &Window, register_bits: u32) -> Option<(Vec<BlockOp>, usize, Split)> {
    let ops: Vec<&BlockOp> = window.ops.iter().map(|&p| &flow.ops[p]).collect();
    for op in &ops {
        independent_pieces(op)?;
    }
    stays_whole_after(flow, window)?;
    let root_ty = flow.ops[window.root].result_types[0].clone()?;
    let pieces = piece_count(flow, window, &ops, &root_ty, register_bits)?;
    // Every value's lanes are cut evenly as its row-major flattening; with
    // a reduction of each row, n-D values keep their shape with their rows
    // cut (the same cut of their lanes), and the leaves and the result,
    // which are cut and joined as they are, must be 1-D.
    let reduces_rows = ops.iter().any(|op| op.name == ROWS_REDUCED);
    let one_d = |t: Option<Ty>| t.is_some_and(|t| t.dims.len() == 1);
    let flat_ends = one_d(Some(root_ty.clone())) && window.leaves.iter().all(|v| one_d(flow.type_of(*v)));
    if reduces_rows && !flat_ends {
        return None;
    }
    let scaled = |t: &Option<Ty>| {
        t.as_ref().map(|t| match t.dims.as_slice() {
            [rows, rest @ ..] if reduces_rows && !rest.is_empty() && rows % pieces == 0 => {
                Ty { dims: [&[rows / pieces][..], rest].concat(), elem_bits: t.elem_bits }
            }
            _ => Ty { dims: vec![t.lanes() / pieces], elem_bits: t.elem_bits },
        })
    };
    // A reduction keeps its rows whole in every piece: rows divide evenly.
    for op in ops.iter().filter(|op| op.name == ROWS_REDUCED) {
        if op.operand_types.first()?.as_ref()?.dims.first()? % pieces != 0 {
            return None;
        }
    }
    let out = ops.iter().enumerate().map(|(i, op)| op_piece(op, i, pieces, &scaled)).collect::<Option<Vec<_>>>()?;
    let root = window.ops.iter().position(|&p| p == window.root)?;
    Some((out, root, Split { pieces }))
}

/// `Some` where `op`'s pieces are independent: a lane-wise op over one
/// lane count (a shape_cast keeps the count), a shuffle of two operands of
/// one lane count, a reduction of rows, or a 1-D deinterleave, on vectors.
fn independent_pieces(op: &BlockOp) -> Option<()> {
    let known = LANE_WISE.contains(&op.name.as_str())
        || op.name == "vector.shuffle"
        || op.name == ROWS_REDUCED
        || op.name == DEINTERLEAVE;
    let results = if op.name == DEINTERLEAVE { 2 } else { 1 };
    if !known || op.results.len() != results || !op.unmodelled_vectors.is_empty() {
        return None;
    }
    for t in op.operand_types.iter().chain(&op.result_types) {
        if t.as_ref()?.dims.is_empty() {
            return None;
        }
    }
    // Lane-wise ops over one lane count (a shape_cast keeps the count),
    // shuffles of two operands of one lane count.
    if op.name == "vector.shuffle" {
        let lanes: Vec<u32> = op.operand_types.iter().flatten().map(Ty::lanes).collect();
        if lanes.len() != 2 || lanes[0] != lanes[1] {
            return None;
        }
    } else if op.name == ROWS_REDUCED {
        rows_reduced(op)?;
    } else if op.name == DEINTERLEAVE {
        // 1-D, each result half the operand's lanes.
        let source = op.operand_types.first()?.as_ref()?;
        let halves = op
            .result_types
            .iter()
            .all(|t| t.as_ref().is_some_and(|t| t.dims.len() == 1 && 2 * t.lanes() == source.lanes()));
        if source.dims.len() != 1 || !halves {
            return None;
        }
    } else {
        let lanes: Vec<u32> = op.operand_types.iter().chain(&op.result_types).flatten().map(Ty::lanes).collect();
        if lanes.windows(2).any(|w| w[0] != w[1]) {
            return None;
        }
    }
    Some(())
}

/// `Some` where nothing after the window needs its result whole. A result
/// that feeds a reshape or a reduction stays whole: LLVM fuses a widening
/// product into the reduction after it (`smlal`, `vpmaddwd`), which pieces
/// would hide behind their concatenation. Reshapes are followed to what
/// reads their results.
fn stays_whole_after(flow: &Dataflow, window: &Window) -> Option<()> {
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
    Some(())
}

/// How many pieces the window (its ops `ops`, its result of type
/// `root_ty`) is cut into: a power of two, at least 2, each piece of
/// every value at least two lanes. The piece is sized by what crosses its
/// boundary: the leaves and the result each fit a register.
fn piece_count(flow: &Dataflow, window: &Window, ops: &[&BlockOp], root_ty: &Ty, register_bits: u32) -> Option<u32> {
    if root_ty.bits() <= register_bits {
        return None;
    }
    let mut boundary = vec![root_ty.bits()];
    for v in &window.leaves {
        boundary.push(flow.type_of(*v)?.bits());
    }
    let pieces = boundary.iter().map(|b| b.div_ceil(register_bits)).max()?.next_power_of_two();
    let lane_counts = ops.iter().flat_map(|op| op.operand_types.iter().chain(&op.result_types)).flatten();
    if pieces < 2 || lane_counts.map(Ty::lanes).any(|l| l % pieces != 0 || l / pieces < 2) {
        return None;
    }
    // Where a deinterleave halves the lanes, pieces sized by the operand
    // leave each piece's result half a register: `umaxp` of a piece with
    // itself, where one `umaxp` of two registers computes two pieces.
    // Cut only where every piece of the result fills a register.
    if ops.iter().any(|op| op.name == DEINTERLEAVE) && root_ty.bits() / pieces < register_bits {
        return None;
    }
    Some(pieces)
}

/// The first of `pieces` pieces of `op`, at position `i`: its types
/// `scaled`, a shuffle's mask and a constant's value cut to the first
/// piece (a constant must repeat in every piece).
fn op_piece(op: &BlockOp, i: usize, pieces: u32, scaled: &dyn Fn(&Option<Ty>) -> Option<Ty>) -> Option<BlockOp> {
    let mut op = op.clone();
    op.index = i;
    if op.name == "vector.shuffle" {
        let lanes = op.operand_types.first()?.as_ref()?.lanes();
        let mask = op.attributes.iter_mut().find(|(n, _)| n == "mask")?;
        let Attr::Ints(m) = &mask.1 else { return None };
        mask.1 = Attr::Ints(piece_mask(m, lanes, pieces)?);
    }
    op.operand_types = op.operand_types.iter().map(scaled).collect();
    op.result_types = op.result_types.iter().map(scaled).collect();
    if op.name == "arith.constant" {
        let all = op.result_types.first()?.as_ref()?.lanes() * pieces;
        let value = op.attributes.iter_mut().find(|(n, _)| n == "value")?;
        let Attr::Elements(xs) = &value.1 else { return None };
        let piece = (all / pieces) as usize;
        let first = &xs[..piece];
        if xs.len() != all as usize || xs.chunks(piece).any(|c| c != first) {
            return None;
        }
        value.1 = Attr::Elements(first.to_vec());
    }
    Some(op)
}

/// How a narrow window is widened: every value's lanes times `factor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    pub factor: u32,
}

/// The window at `factor` times its lanes, `factor` the power of two that
/// makes its widest leaf or result fill a register of `register_bits`: its
/// ops (positions renumbered, values kept), every value's lanes (rows, if
/// n-D) multiplied and constants repeated, and the root's new position.
/// `None` unless every op is lane-wise or a reduction of each row (see
/// [`rows_reduced`]), the leaves and the result are 1-D, and the widest leaf
/// or result is at most half a register.
pub fn widened_block(flow: &Dataflow, window: &Window, register_bits: u32) -> Option<(Vec<BlockOp>, usize, Widening)> {
    let ops: Vec<&BlockOp> = window.ops.iter().map(|&p| &flow.ops[p]).collect();
    for op in &ops {
        let known = LANE_WISE.contains(&op.name.as_str()) || op.name == ROWS_REDUCED;
        if !known || op.results.len() != 1 || !op.unmodelled_vectors.is_empty() {
            return None;
        }
        let types: Vec<&Ty> =
            op.operand_types.iter().chain(&op.result_types).map(Option::as_ref).collect::<Option<_>>()?;
        if op.name == ROWS_REDUCED {
            rows_reduced(op)?;
        } else if types.iter().any(|t| t.dims.is_empty() || t.lanes() != types[0].lanes()) {
            return None;
        }
    }
    let root_ty = flow.ops[window.root].result_types[0].clone()?;
    let mut widest = root_ty.bits();
    for v in &window.leaves {
        let t = flow.type_of(*v)?;
        if t.dims.len() != 1 {
            return None;
        }
        widest = widest.max(t.bits());
    }
    if root_ty.dims.len() != 1 {
        return None;
    }
    if widest == 0 || register_bits % widest != 0 || !(register_bits / widest).is_power_of_two() {
        return None;
    }
    let factor = register_bits / widest;
    if factor < 2 {
        return None;
    }
    // A 1-D value's lanes are multiplied, an n-D value's rows: the same
    // repetition of its row-major lanes.
    let wide = |t: &Option<Ty>| {
        t.as_ref().map(|t| {
            let mut dims = t.dims.clone();
            dims[0] *= factor;
            Ty { dims, elem_bits: t.elem_bits }
        })
    };
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let mut op = (*op).clone();
        op.index = i;
        op.operand_types = op.operand_types.iter().map(wide).collect();
        op.result_types = op.result_types.iter().map(wide).collect();
        if op.name == "arith.constant" {
            let value = op.attributes.iter_mut().find(|(n, _)| n == "value")?;
            let Attr::Elements(xs) = &value.1 else { return None };
            value.1 = Attr::Elements((0..factor).flat_map(|_| xs.iter().cloned()).collect());
        }
        out.push(op);
    }
    let root = window.ops.iter().position(|&p| p == window.root)?;
    Some((out, root, Widening { factor }))
}

/// The ops that apply the program of a widened window (`wide_ops`, as
/// `lower::new_ops` made them over it): each leaf it reads repeated
/// `factor` times (`vector.shuffle` of the leaf with itself), the program,
/// then the first `factor`th of its result, of the root's type `root`.
/// `full` gives each leaf's type in the block.
pub fn instantiate_widened(
    wide_ops: &[NewOp],
    full: &dyn Fn(usize) -> Option<Ty>,
    widening: Widening,
    root: &Ty,
) -> Option<Vec<NewOp>> {
    let mut out: Vec<NewOp> = Vec::new();
    let factor = widening.factor;
    let repeat = |n: u32| (0..n * factor).map(|i| i64::from(i % n)).collect();
    append_over_shuffled_leaves(&mut out, wide_ops, full, &repeat, true)?;
    let last = out.last()?.result.clone();
    if last.lanes() != root.lanes() * widening.factor || last.elem_bits != root.elem_bits {
        return None;
    }
    let wide_root = Ty { dims: vec![last.lanes()], elem_bits: last.elem_bits };
    let wide = Ref::Step(out.len() - 1);
    out.push(shuffle([wide, wide], &wide_root, (0..i64::from(root.lanes())).collect())?);
    Some(out)
}

/// A `vector.shuffle` of two operands of type `operand` (1-D) by `mask`:
/// its result has one element of the operands' size per mask entry.
fn shuffle(operands: [Ref; 2], operand: &Ty, mask: Vec<i64>) -> Option<NewOp> {
    let result = Ty { dims: vec![u32::try_from(mask.len()).ok()?], elem_bits: operand.elem_bits };
    Some(NewOp {
        op: "vector.shuffle".into(),
        attributes: vec![("mask".into(), NewAttr::I64s(mask))],
        operands: operands.map(|r| (r, operand.clone())).to_vec(),
        result,
    })
}

/// Appends to `out` a `vector.shuffle` of each value `program` reads with
/// itself, by `mask` of its lane count (a piece of it, or it repeated), as
/// a 1-D vector (`full` gives its type in the block), then `program` reading
/// those shuffles in place of the values. `None` if a value has no type.
/// With `whole_words`, a value of narrower elements that is whole 32-bit
/// words is shuffled as words (`mask` repeats it: so does the same mask
/// over its words): one LLVM 22 backend's code for a `<32 x i8>` repeated
/// four times gets bytes of its first word wrong, where words come out
/// right.
fn append_over_shuffled_leaves(
    out: &mut Vec<NewOp>,
    program: &[NewOp],
    full: &dyn Fn(usize) -> Option<Ty>,
    mask: &dyn Fn(u32) -> Vec<i64>,
    whole_words: bool,
) -> Option<()> {
    let mut shuffled: HashMap<usize, usize> = HashMap::new();
    for (r, _) in program.iter().flat_map(|o| &o.operands) {
        let Ref::Value(v) = *r else { continue };
        if shuffled.contains_key(&v) {
            continue;
        }
        let given = full(v)?;
        let t = Ty { dims: vec![given.lanes()], elem_bits: given.elem_bits };
        if whole_words && given.dims.len() == 1 && t.elem_bits < 32 && t.bits() % 32 == 0 {
            let words = Ty { dims: vec![t.bits() / 32], elem_bits: 32 };
            let word_mask = mask(words.lanes());
            let cast = |operand: Ref, from: &Ty, to: &Ty| NewOp {
                op: "vector.bitcast".into(),
                attributes: vec![],
                operands: vec![(operand, from.clone())],
                result: to.clone(),
            };
            out.push(cast(Ref::Value(v), &t, &words));
            let cast_words = Ref::Step(out.len() - 1);
            let repeat = shuffle([cast_words, cast_words], &words, word_mask)?;
            let repeated = repeat.result.clone();
            let result = Ty { dims: vec![repeated.bits() / t.elem_bits], elem_bits: t.elem_bits };
            out.push(repeat);
            out.push(cast(Ref::Step(out.len() - 1), &repeated, &result));
            shuffled.insert(v, out.len() - 1);
            continue;
        }
        let mask = mask(t.lanes());
        shuffled.insert(v, out.len());
        out.push(shuffle([Ref::Value(v), Ref::Value(v)], &t, mask)?);
    }
    let offset = out.len();
    for op in program {
        let mut op = op.clone();
        for (r, _) in op.operands.iter_mut() {
            *r = match *r {
                Ref::Value(v) => Ref::Step(shuffled[&v]),
                Ref::Step(k) => Ref::Step(offset + k),
            };
        }
        out.push(op);
    }
    Some(())
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
        let piece = |n: u32| {
            let lanes = n / split.pieces;
            (p * lanes..(p + 1) * lanes).map(i64::from).collect()
        };
        append_over_shuffled_leaves(&mut out, piece_ops, full, &piece, false)?;
        results.push((out.len() - 1, root.lanes() / split.pieces));
    }
    while results.len() > 1 {
        let mut next = Vec::new();
        for pair in results.chunks(2) {
            let [(a, n), (b, _)] = pair else { return None };
            let t = piece_ty(root.elem_bits, *n);
            next.push((out.len(), 2 * n));
            out.push(shuffle([Ref::Step(*a), Ref::Step(*b)], &t, (0..2 * i64::from(*n)).collect())?);
        }
        results = next;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{piece_mask, rows_reduced};
    use crate::synth::attr::Attr;
    use crate::synth::block::BlockOp;
    use crate::synth::types::Ty;

    fn reduction(source: &[u32], dims: &[i64], result: &[u32], acc: Option<&[u32]>) -> BlockOp {
        let ty = |d: &[u32]| Some(Ty { dims: d.to_vec(), elem_bits: 32 });
        BlockOp {
            index: 0,
            name: "vector.multi_reduction".into(),
            operands: vec![0, 1],
            operand_types: std::iter::once(ty(source)).chain(acc.map(ty)).collect(),
            results: vec![2],
            result_types: vec![ty(result)],
            attributes: vec![("reduction_dims".into(), Attr::Ints(dims.to_vec()))],
            has_regions: false,
            unmodelled_vectors: vec![],
        }
    }

    #[test]
    fn only_a_reduction_of_each_row_of_a_matrix_qualifies() {
        assert!(rows_reduced(&reduction(&[16, 4], &[1], &[16], Some(&[16]))).is_some());
        assert!(rows_reduced(&reduction(&[16, 4], &[1], &[16], None)).is_some());
        // Over the rows, every result lane reads every piece.
        assert!(rows_reduced(&reduction(&[16, 4], &[0], &[4], Some(&[4]))).is_none());
        // An accumulator of another shape, a 3-D source.
        assert!(rows_reduced(&reduction(&[16, 4], &[1], &[16], Some(&[4]))).is_none());
        assert!(rows_reduced(&reduction(&[4, 4, 4], &[2], &[4, 4], None)).is_none());
    }

    #[test]
    fn shuffles_within_pieces_are_cut_and_others_are_not() {
        // Even lanes of 8, in 2 pieces: each result piece reads its own operand piece alike.
        assert_eq!(piece_mask(&[0, 2, 4, 6], 8, 2), Some(vec![0, 2]));
        // Two operands: operand 1's piece follows operand 0's in the piece's mask.
        assert_eq!(piece_mask(&[0, 8, 1, 9, 4, 12, 5, 13], 8, 2), Some(vec![0, 4, 1, 5]));
        // Reversing the lanes reads the other piece; a broadcast of lane 0 reads piece 0 everywhere.
        assert_eq!(piece_mask(&[7, 6, 5, 4, 3, 2, 1, 0], 8, 2), None);
        assert_eq!(piece_mask(&[0, 0, 0, 0], 8, 2), None);
        // The same piece, at different positions in different pieces.
        assert_eq!(piece_mask(&[0, 1, 5, 4], 8, 2), None);
    }
}
