//! Proofs piece by piece: two windows whose every op keeps lanes in place
//! are equal when each piece of their lanes is, and pieces that are the
//! same computation over other input elements are proved once.
//!
//! Every vector value of both windows is cut into `k` pieces along its
//! first dimension (row-major, so a `vector.shape_cast` or a
//! `vector.bitcast` keeps piece `q` in place: it is the same `q`th of the
//! value's bits whatever its type). Piece `q` of each op's result is the op
//! applied to piece `q` of its operands when the op is
//! - lane-wise (`crate::synth::pieces::LANE_WISE`, the two-result extended
//!   products);
//! - a reshape (`vector.shape_cast`, `vector.bitcast`);
//! - a `vector.multi_reduction` that keeps the first dimension;
//! - a `vector.deinterleave` or `vector.interleave` of 1-D vectors;
//! - a `vector.broadcast` of a scalar.
//!
//! Scalars are not cut. So piece `q` of a window's result is its piece
//! window over piece `q` of its leaves (the leaves' input elements from
//! `first + q * lanes / k` on), and the two windows are equal iff every
//! pair of piece windows is. Where every input is read through leaves of
//! one lane count, piece `q'` is piece `q` with each input's elements
//! renamed by one offset, unless their constants differ: pieces are proved
//! once per distinct set of constant pieces. A query is then bounded by
//! [`PIECE_BITS`] and their count by the lanes, whatever the width.

use super::attr::Attr;
use super::block::{BlockOp, Dataflow, Window};
use super::pieces::LANE_WISE;
use super::proof_failure::ProofFailure;
use super::types::Ty;
use num_bigint::BigInt;
use std::collections::{BTreeMap, HashMap};

/// The widest value of one piece, in bits.
pub const PIECE_BITS: u32 = 2048;

/// The widest value a proof takes whole (64 registers of 512 bits); a
/// wider window that cannot be cut is not proved.
pub const WHOLE_BITS: u32 = 32_768;

/// Where a window's leaf comes from: the elements `first, first + 1, …` of
/// input `source` (a row of memory, say). Leaves of either window that name
/// the same source element read the same input element, so two windows that
/// read overlapping parts of memory through different loads can be compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafElements {
    pub source: usize,
    pub first: u32,
}

/// One side of a proof: a window's dataflow, the window and where its
/// leaves' elements come from.
pub type Side<'a> = (&'a Dataflow<'a>, &'a Window, &'a [LeafElements]);

/// One side of a proof cut to one piece, owned: its ops (positions
/// renumbered, values kept), the window over them and its leaves' elements.
pub struct OwnedPiece {
    pub ops: Vec<BlockOp>,
    pub window: Window,
    pub sources: Vec<LeafElements>,
}

/// Whether the second of each pair of leaf sources is the first with each
/// input's elements moved by one offset per input (the same offset in
/// every pair): a query over the second is the first's renamed.
pub fn shifted_alike(pairs: &[(&[LeafElements], &[LeafElements])]) -> bool {
    let mut delta: HashMap<usize, i64> = HashMap::new();
    for (a, b) in pairs {
        if a.len() != b.len() {
            return false;
        }
        for (x, y) in a.iter().zip(b.iter()) {
            let d = i64::from(y.first) - i64::from(x.first);
            if x.source != y.source || *delta.entry(x.source).or_insert(d) != d {
                return false;
            }
        }
    }
    true
}

/// How two windows are cut: into `pieces` pieces of every vector's first
/// dimension.
pub struct Cut {
    pieces: u32,
}

/// Whether `op`'s result piece `q` reads only piece `q` of its operands
/// (scalars whole), given each vector's first dimension is cut.
fn keeps_pieces(op: &BlockOp) -> bool {
    let types: Option<Vec<&Ty>> = op.operand_types.iter().chain(&op.result_types).map(Option::as_ref).collect();
    let Some(types) = types else { return false };
    if !op.unmodelled_vectors.is_empty() || op.has_regions {
        return false;
    }
    let name = op.name.as_str();
    let vectors: Vec<&&Ty> = types.iter().filter(|t| !t.dims.is_empty()).collect();
    if vectors.is_empty() {
        // A scalar op: the same in every piece.
        return true;
    }
    let one_d = |t: &&&Ty| t.dims.len() == 1;
    match name {
        "vector.shape_cast" | "vector.bitcast" => vectors.len() == 2,
        "vector.multi_reduction" => {
            let dims = op.attribute("reduction_dims").and_then(Attr::ints);
            let source = op.operand_types[0].as_ref().map_or(0, |t| t.dims.len());
            source >= 2 && dims.is_some_and(|d| !d.contains(&0)) && vectors.len() == types.len()
        }
        "vector.deinterleave" | "vector.interleave" => vectors.len() == types.len() && vectors.iter().all(one_d),
        "vector.broadcast" => op.operand_types.first().is_some_and(|t| t.as_ref().is_some_and(|t| t.dims.is_empty())),
        "arith.mulsi_extended" | "arith.mului_extended" => same_shape(&vectors) && vectors.len() == types.len(),
        _ => LANE_WISE.contains(&name) && same_shape(&vectors) && vectors.len() == types.len(),
    }
}

fn same_shape(types: &[&&Ty]) -> bool {
    types.windows(2).all(|w| w[0].dims == w[1].dims)
}

/// Every vector type the window's ops read or write.
fn vector_types<'a>(flow: &'a Dataflow, window: &'a Window) -> impl Iterator<Item = &'a Ty> + 'a {
    window
        .ops
        .iter()
        .flat_map(move |&p| flow.ops[p].operand_types.iter().chain(&flow.ops[p].result_types))
        .flatten()
        .filter(|t| !t.dims.is_empty())
}

/// The widest value of a window, in bits.
pub fn widest(flow: &Dataflow, window: &Window) -> u32 {
    vector_types(flow, window).map(Ty::bits).max().unwrap_or(0)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Cut {
    /// How `left` and `right` are cut: the fewest pieces that bring the
    /// widest value to [`PIECE_BITS`] (or as near as the first dimensions
    /// allow); `None` where a window has an op that does not keep pieces
    /// or one piece would do.
    pub fn of(left: Side, right: Side) -> Option<Cut> {
        let sides = [(left.0, left.1), (right.0, right.1)];
        for (flow, window) in sides {
            if !window.ops.iter().all(|&p| keeps_pieces(&flow.ops[p])) {
                return None;
            }
        }
        let firsts = sides.iter().flat_map(|(f, w)| vector_types(f, w).map(|t| t.dims[0]));
        let common = firsts.fold(0, gcd);
        let wide = sides.iter().map(|(f, w)| widest(f, w)).max().unwrap_or(0);
        if common < 2 || wide <= PIECE_BITS {
            return None;
        }
        let pieces = (2..=common).find(|k| common % k == 0 && wide / k <= PIECE_BITS).unwrap_or(common);
        Some(Cut { pieces })
    }

    /// A cut into `pieces` pieces, however the windows are made.
    pub fn into_pieces(pieces: u32) -> Cut {
        Cut { pieces }
    }

    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Piece `q` of one side, owned: `None` where an op of the window does
    /// not keep pieces or a first dimension is not a multiple of the count.
    pub fn side(&self, (flow, window, sources): Side, q: u32) -> Option<OwnedPiece> {
        let kept = window.ops.iter().all(|&p| keeps_pieces(&flow.ops[p]));
        if !kept || self.pieces == 0 || vector_types(flow, window).any(|t| t.dims[0] % self.pieces != 0) {
            return None;
        }
        self.piece((flow, window, sources), q)
    }

    /// Piece `q` of a window: every vector's first dimension divided by the
    /// piece count, constants cut to their `q`th piece.
    fn piece(&self, (flow, window, sources): Side, q: u32) -> Option<OwnedPiece> {
        let k = self.pieces;
        let cut = |t: &Option<Ty>| {
            t.as_ref().map(|t| {
                let mut dims = t.dims.clone();
                if let Some(first) = dims.first_mut() {
                    *first /= k;
                }
                Ty { dims, elem_bits: t.elem_bits }
            })
        };
        let mut ops = Vec::with_capacity(window.ops.len());
        for (i, &p) in window.ops.iter().enumerate() {
            let whole = &flow.ops[p];
            let vector_constant = whole.name == "arith.constant"
                && whole.result_types.first().is_some_and(|t| t.as_ref().is_some_and(|t| !t.dims.is_empty()));
            // A vector constant's elements cut without copying the others.
            let mut attributes = Vec::with_capacity(whole.attributes.len());
            for (name, value) in &whole.attributes {
                attributes.push(match value {
                    Attr::Elements(xs) if vector_constant && name == "value" => {
                        let each = xs.len() / k as usize;
                        (name.clone(), Attr::Elements(xs[q as usize * each..(q as usize + 1) * each].to_vec()))
                    }
                    _ if vector_constant && name == "value" => return None,
                    _ => (name.clone(), value.clone()),
                });
            }
            ops.push(BlockOp {
                index: i,
                name: whole.name.clone(),
                operands: whole.operands.clone(),
                operand_types: whole.operand_types.iter().map(cut).collect(),
                results: whole.results.clone(),
                result_types: whole.result_types.iter().map(cut).collect(),
                attributes,
                has_regions: whole.has_regions,
                unmodelled_vectors: whole.unmodelled_vectors.clone(),
            });
        }
        let root = window.ops.iter().position(|&p| p == window.root)?;
        let sources = self.piece_sources(flow, window, sources, q);
        let window = Window { ops: (0..ops.len()).collect(), leaves: window.leaves.clone(), root };
        Some(OwnedPiece { ops, window, sources })
    }

    /// Piece `q`'s leaves: each vector leaf's elements from
    /// `first + q * lanes / k`, scalars as they are.
    fn piece_sources(&self, flow: &Dataflow, window: &Window, sources: &[LeafElements], q: u32) -> Vec<LeafElements> {
        window
            .leaves
            .iter()
            .zip(sources)
            .map(|(v, s)| match flow.type_of(*v) {
                Some(t) if !t.dims.is_empty() => {
                    LeafElements { source: s.source, first: s.first + q * t.lanes() / self.pieces }
                }
                _ => *s,
            })
            .collect()
    }

    /// Whether piece `q'` is piece `q` renamed: every input is read through
    /// leaves of one lane count (so each input's elements move by one
    /// offset from piece to piece).
    fn pieces_rename(&self, sides: &[Side]) -> bool {
        let mut lanes: HashMap<usize, u32> = HashMap::new();
        for (flow, window, sources) in sides {
            for (v, s) in window.leaves.iter().zip(sources.iter()) {
                let n = flow.type_of(*v).map_or(0, |t| if t.dims.is_empty() { 0 } else { t.lanes() });
                if *lanes.entry(s.source).or_insert(n) != n {
                    return false;
                }
            }
        }
        true
    }

    /// Both windows' constants cut to piece `q`: pieces with the same are
    /// the same query renamed.
    fn constants_of(&self, sides: &[Side], q: u32) -> Vec<Vec<BigInt>> {
        let k = self.pieces as usize;
        let mut out = Vec::new();
        for (flow, window, _) in sides {
            for &p in &window.ops {
                let op = &flow.ops[p];
                if op.name != "arith.constant" {
                    continue;
                }
                if let Some(Attr::Elements(xs)) = op.attribute("value") {
                    let each = xs.len() / k;
                    out.push(xs[q as usize * each..(q as usize + 1) * each].to_vec());
                }
            }
        }
        out
    }

    /// Proves `left` equal to `right` piece by piece with `prove`, within
    /// `ms` for all the pieces: the first piece of each distinct set of
    /// constant pieces (every piece where the pieces do not rename).
    pub fn prove(
        &self,
        left: Side,
        right: Side,
        ms: u32,
        prove: impl Fn(Side, Side, u32) -> Result<(), ProofFailure>,
    ) -> Result<(), ProofFailure> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(u64::from(ms));
        let sides = [left, right];
        let renames = self.pieces_rename(&sides);
        let mut distinct: BTreeMap<Vec<Vec<BigInt>>, u32> = BTreeMap::new();
        let mut order: Vec<u32> = Vec::new();
        for q in 0..self.pieces {
            if !renames {
                order.push(q);
                continue;
            }
            let key = self.constants_of(&sides, q);
            if let std::collections::btree_map::Entry::Vacant(e) = distinct.entry(key) {
                e.insert(q);
                order.push(q);
            }
        }
        for (done, &q) in order.iter().enumerate() {
            let left_ms = deadline.saturating_duration_since(std::time::Instant::now()).as_millis();
            if left_ms == 0 {
                return Err(ProofFailure::NotCompared(format!(
                    "out of budget: {done} of {} distinct pieces (of {}) proved within {ms} ms",
                    order.len(),
                    self.pieces
                )));
            }
            let (Some(l), Some(r)) = (self.piece(left, q), self.piece(right, q)) else {
                return Err(ProofFailure::NotCompared(format!("piece {q} could not be cut")));
            };
            let (lf, rf) = (Dataflow::new(&l.ops), Dataflow::new(&r.ops));
            let budget = u32::try_from(left_ms).unwrap_or(u32::MAX);
            prove((&lf, &l.window, &l.sources), (&rf, &r.window, &r.sources), budget)
                .map_err(|e| ProofFailure::InPiece { failure: Box::new(e), piece: q, pieces: self.pieces })?;
        }
        Ok(())
    }
}

/// Why a window is not proved whole: a value wider than [`WHOLE_BITS`].
pub fn too_wide_to_prove_whole(sides: &[(&Dataflow, &Window)]) -> Option<String> {
    let wide = sides.iter().map(|(f, w)| widest(f, w)).max().unwrap_or(0);
    (wide > WHOLE_BITS).then(|| {
        format!(
            "out of budget: a value of {wide} bits, wider than the {WHOLE_BITS} bits a proof takes whole, and the \
             window cannot be cut into pieces of lanes"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::attr::Attr;
    use super::super::block::{BlockOp, Dataflow};
    use super::super::proof::windows_equal;
    use super::super::proof_failure::ProofFailure;
    use super::super::types::Ty;
    use num_bigint::BigInt;

    /// `x + c` over 4,096 bytes, value 0 the input, 1 the constant, 2 the sum.
    fn add_constant(c: Vec<i64>) -> Vec<BlockOp> {
        let ty = Ty { dims: vec![c.len() as u32], elem_bits: 8 };
        let op = |index: usize, name: &str, operands: Vec<usize>, result: usize, attributes| BlockOp {
            index,
            name: name.into(),
            operand_types: operands.iter().map(|_| Some(ty.clone())).collect(),
            operands,
            results: vec![result],
            result_types: vec![Some(ty.clone())],
            attributes,
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        };
        let value = Attr::Elements(c.into_iter().map(BigInt::from).collect());
        vec![
            op(0, "arith.constant", vec![], 1, vec![("value".into(), value)]),
            op(1, "arith.addi", vec![0, 1], 2, vec![]),
        ]
    }

    /// Windows of 32,768 bits are proved in pieces of 2,048: equal where
    /// every lane is, and a difference in one lane of a late piece is found
    /// and named by its piece.
    #[test]
    fn wide_windows_are_proved_by_pieces_and_a_late_difference_is_found() {
        let ones = add_constant(vec![1; 4096]);
        let (a, b) = (Dataflow::new(&ones), Dataflow::new(&ones));
        let (wa, wb) = (a.close([0, 1].into(), 1), b.close([0, 1].into(), 1));
        assert_eq!(windows_equal((&a, &wa), (&b, &wb), 5_000), Ok(()));
        let mut late = vec![1; 4096];
        late[4000] = 2;
        let other = add_constant(late);
        let c = Dataflow::new(&other);
        let wc = c.close([0, 1].into(), 1);
        let err = windows_equal((&a, &wa), (&c, &wc), 5_000).unwrap_err();
        assert!(matches!(err, ProofFailure::InPiece { piece: 15, pieces: 16, .. }), "{err}");
        assert_eq!(err.refutation(), crate::synth::proof_failure::Refutation::Differs, "{err}");
    }
}
