//! The windows of a chain of products by constants as block ops: a pair's
//! window (its bytes times its weights, plus the chain so far), `a + b`,
//! and the whole chain as the pairs compute it ([`super::products`] reads
//! the chain and lays the pairs out).

use super::attr::Attr;
use super::block::BlockOp;
use super::products::{Arrangement, Layout};
use super::types::Ty;
use num_bigint::BigInt;

/// Appends `op(operands) : result` to `ops`, result value `result`.
pub(super) fn push(
    ops: &mut Vec<BlockOp>,
    name: &str,
    operands: Vec<(usize, Ty)>,
    result: (usize, Ty),
    attributes: Vec<(String, Attr)>,
) {
    ops.push(BlockOp {
        index: ops.len(),
        name: name.into(),
        operand_types: operands.iter().map(|(_, t)| Some(t.clone())).collect(),
        operands: operands.into_iter().map(|(v, _)| v).collect(),
        results: vec![result.0],
        result_types: vec![Some(result.1)],
        attributes,
        has_regions: false,
        unmodelled_vectors: vec![],
    });
}

/// A one-dimensional vector type.
pub(super) fn vector(lanes: u32, elem_bits: u32) -> Ty {
    Ty { dims: vec![lanes], elem_bits }
}

/// Fresh value numbers for ops a block does not have.
pub(super) struct Fresh(pub(super) usize);

impl Fresh {
    pub(super) fn next(&mut self) -> usize {
        self.0 += 1;
        self.0
    }
}

/// Appends a pair's computation to `ops`: the weights (a constant of
/// `elem_bits / 2`-bit elements), then the pair's register of bytes
/// `bytes` times them into `elem_bits`-bit lanes, the even bytes' products
/// and the odd ones' summed pairwise ([`Arrangement::LaneUnpack`]) or
/// concatenated ([`Arrangement::Halves`]), plus `sum` if given. Its result
/// value.
fn push_pair(
    ops: &mut Vec<BlockOp>,
    fresh: &mut Fresh,
    bytes: usize,
    weights: &[BigInt],
    elem_bits: u32,
    arrangement: Arrangement,
    sum: Option<usize>,
    constant_weights: bool,
) -> usize {
    let n = weights.len() as u32;
    let words = vector(n / 2, elem_bits);
    let half = elem_bits / 2;
    let w = fresh.next();
    if constant_weights {
        let value = vec![("value".into(), Attr::Elements(weights.to_vec()))];
        push(ops, "arith.constant", vec![], (w, vector(n, half)), value);
    }
    let parity = |k: u32| vec![("mask".into(), Attr::Ints((0..n / 2).map(|i| i64::from(2 * i + k)).collect()))];
    let mut products = Vec::new();
    for k in 0..2u32 {
        let (x, c) = (fresh.next(), fresh.next());
        push(ops, "vector.shuffle", vec![(bytes, vector(n, 8)); 2], (x, vector(n / 2, 8)), parity(k));
        push(ops, "vector.shuffle", vec![(w, vector(n, half)); 2], (c, vector(n / 2, half)), parity(k));
        let (xe, ce, p) = (fresh.next(), fresh.next(), fresh.next());
        push(ops, "arith.extui", vec![(x, vector(n / 2, 8))], (xe, words.clone()), vec![]);
        push(ops, "arith.extsi", vec![(c, vector(n / 2, half))], (ce, words.clone()), vec![]);
        push(ops, "arith.muli", vec![(xe, words.clone()), (ce, words.clone())], (p, words.clone()), vec![]);
        products.push(p);
    }
    let pair = fresh.next();
    let both = vec![(products[0], words.clone()), (products[1], words.clone())];
    let result = match arrangement {
        Arrangement::LaneUnpack => {
            push(ops, "arith.addi", both, (pair, words.clone()), vec![]);
            words
        }
        Arrangement::Halves => {
            let concat = vec![("mask".into(), Attr::Ints((0..i64::from(n)).collect()))];
            push(ops, "vector.shuffle", both, (pair, vector(n, elem_bits)), concat);
            vector(n, elem_bits)
        }
    };
    let Some(sum) = sum else { return pair };
    let total = fresh.next();
    push(ops, "arith.addi", vec![(sum, result.clone()), (pair, result.clone())], (total, result), vec![]);
    total
}

/// The window a pair is posed as: a register of the pair's bytes `t`
/// (value 0) times the weights' register (value 3: the constant `weights`,
/// or an input where the arrangement's products hold for any weights, see
/// [`Arrangement::any_weights`]), into `elem_bits`-bit lanes as
/// `arrangement` has them, plus the chain so far (value 2) when
/// `accumulate`. Its ops and the root's position.
pub fn pair_window(
    weights: &[BigInt],
    elem_bits: u32,
    arrangement: Arrangement,
    accumulate: bool,
) -> (Vec<BlockOp>, usize) {
    let mut ops = Vec::new();
    let constant = !arrangement.any_weights();
    push_pair(&mut ops, &mut Fresh(2), 0, weights, elem_bits, arrangement, accumulate.then_some(2), constant);
    let root = ops.len() - 1;
    (ops, root)
}

/// `a + b` (values 0 and 1) of type `ty`: its op and position.
pub fn add_window(ty: &Ty) -> (Vec<BlockOp>, usize) {
    let mut ops = Vec::new();
    push(&mut ops, "arith.addi", vec![(0, ty.clone()), (1, ty.clone())], (2, ty.clone()), vec![]);
    (ops, 0)
}

/// The chain as the pairs compute it, in `arith` and `vector` ops over the
/// chain's inputs (their value numbers, `inputs` their type): each pair's
/// bytes laid out as the layout has them, its products added into the
/// chain so far, and the result put back in order. What the program
/// computes with each pair's program in place of the pair's window: the
/// chain equal to this and each pair's program equal to its window make
/// the program equal to the chain. Its ops and the root's position.
pub fn paired_block(pairs: &[[(usize, i64); 2]], layout: &Layout, inputs: &Ty) -> (Vec<BlockOp>, usize) {
    let bytes_of = layout.pair_bytes();
    let mut ops = Vec::new();
    let mut fresh = Fresh(usize::MAX / 2);
    let chain_ty = vector(layout.chain_bits() / layout.elem_bits, layout.elem_bits);
    let result_ty = vector(layout.bits / 8, layout.elem_bits);
    let mut chains = Vec::new();
    for z in layout.interleaves() {
        let mut sum = None;
        for pair in pairs {
            let bytes = fresh.next();
            let mask = Attr::Ints(z.mask.iter().map(|m| i64::from(*m)).collect());
            push(
                &mut ops,
                "vector.shuffle",
                vec![(pair[0].0, inputs.clone()), (pair[1].0, inputs.clone())],
                (bytes, vector(bytes_of, 8)),
                vec![("mask".into(), mask)],
            );
            let weights = layout.weights(pair);
            let arrangement = layout.arrangement;
            sum = Some(push_pair(&mut ops, &mut fresh, bytes, &weights, layout.elem_bits, arrangement, sum, true));
        }
        chains.extend(sum);
    }
    let shuffle = |ops: &mut Vec<BlockOp>, fresh: &mut Fresh, operands: Vec<usize>, mask: Vec<i64>| {
        let out = fresh.next();
        let operands = operands.into_iter().map(|v| (v, chain_ty.clone())).collect();
        push(ops, "vector.shuffle", operands, (out, result_ty.clone()), vec![("mask".into(), Attr::Ints(mask))]);
        out
    };
    match (layout.arrangement, chains.as_slice()) {
        (Arrangement::LaneUnpack, [lo, hi]) => {
            let restore = layout.restore();
            // The restoring swizzle's 64-bit blocks as lanes of the result.
            let per = 64 / layout.elem_bits;
            let mask = restore.mask.iter().flat_map(|b| (0..per).map(move |i| i64::from(per * b + i))).collect();
            shuffle(&mut ops, &mut fresh, vec![*lo, *hi], mask);
        }
        (Arrangement::Halves, [chain]) => {
            let [first, second] = layout.halves_in_order().map(|z| {
                let mask = z.mask.iter().map(|m| i64::from(*m)).collect();
                shuffle(&mut ops, &mut fresh, vec![*chain, *chain], mask)
            });
            let out = fresh.next();
            let both = vec![(first, result_ty.clone()), (second, result_ty.clone())];
            push(&mut ops, "arith.addi", both, (out, result_ty.clone()), vec![]);
        }
        _ => {}
    }
    let root = ops.len() - 1;
    (ops, root)
}
