//! Sums of products by constants: the multiply-accumulate chains of
//! stencils, `Σ w_k · zext(x_k)` over narrow unsigned vectors `x_k`, taken
//! two products at a time.
//!
//! A chain of adds is too large for the search (a 5x5 stencil reads 25
//! inputs), and no window cut from it holds two products whose sum one
//! instruction computes: the adds pair each product with the chain's sum
//! so far. So the chain is read as its linear form (the weight of each
//! input, modulo the result's width), the inputs are paired, and each pair
//! is posed to the search as its own small window: the pair's bytes
//! interleaved (`x0 y0 x1 y1 …`, a register) times an interleaved constant
//! of the two weights, summed pairwise, with the sum so far added. The
//! search finds the target's instruction for it (`vpmaddubsw` and an add on
//! x86), and the programs are strung together over the interleaved pairs.
//!
//! The interleaving is the target's unpack within 128-bit lanes (low and
//! high halves of each lane, registers as wide as the inputs): two chains,
//! each over half the result's lanes in a permuted order, and the lanes put
//! back in order at the end by one shuffle of 128-bit blocks.
//!
//! The whole program is then proved equal to the chain like any other
//! rewrite (lane by lane, one query per lane shape): the reading of the
//! chain, the pairing and the layout are heuristics, never trusted.

use super::attr::{Attr, NewAttr};
use super::block::{BlockOp, Dataflow};
use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::types::Ty;
use num_bigint::{BigInt, BigUint};
use std::collections::{BTreeMap, BTreeSet};

/// Inputs the chain must read before pairing pays (two pairs or more).
pub const MIN_TERMS: usize = 3;

/// Inputs a chain may read: longer ones are left to LLVM (its proof and
/// the pairs' registers grow with them).
pub const MAX_TERMS: usize = 64;

/// A chain read as its linear form.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearForm {
    /// The chain's ops (constants included), positions in the block.
    pub ops: BTreeSet<usize>,
    /// Each input (a value of the block, unsigned narrow lanes) and its
    /// weight, signed, modulo 2^`elem_bits`.
    pub terms: Vec<(usize, i64)>,
    /// The result: `lanes` lanes of `elem_bits` bits.
    pub lanes: u32,
    pub elem_bits: u32,
    /// The inputs' element size.
    pub input_bits: u32,
}

/// The splat value of constant `value`, if it is one.
fn splat(flow: &Dataflow, value: usize) -> Option<BigInt> {
    let op = flow.constant(value)?;
    match op.attribute("value")? {
        Attr::Elements(xs) => xs.iter().all(|x| *x == xs[0]).then(|| xs[0].clone()),
        Attr::Int(x) => Some(x.clone()),
        _ => None,
    }
}

/// Reads the single-use tree of adds, subtractions and products by splat
/// constants ending at op `root` as a sum of products of
/// zero-extended inputs. `None` if any part of it is something else, if it
/// adds a constant, or if it reads fewer than [`MIN_TERMS`] inputs.
pub fn linear_form(flow: &Dataflow, root: usize) -> Option<LinearForm> {
    let op = &flow.ops[root];
    if !matches!(op.name.as_str(), "arith.addi" | "arith.subi") || op.results.len() != 1 {
        return None;
    }
    let ty = op.result_types[0].clone()?;
    if ty.dims.len() != 1 || ty.elem_bits > 32 {
        return None;
    }
    let modulus = BigInt::from(1u64) << ty.elem_bits;
    let mut ops = BTreeSet::new();
    let mut weights: BTreeMap<usize, BigInt> = BTreeMap::new();
    let mut input_bits = None;
    let mut stack: Vec<(usize, BigInt, bool)> = vec![(op.results[0], BigInt::from(1), true)];
    while let Some((value, scale, is_root)) = stack.pop() {
        if ops.len() > 4 * MAX_TERMS {
            return None;
        }
        let pos = flow.defining_op(value)?;
        if !is_root && flow.readers(value).len() != 1 {
            return None;
        }
        let op = &flow.ops[pos];
        if op.results.len() != 1 || op.result_types[0].as_ref() != Some(&ty) && op.name != "arith.extui" {
            return None;
        }
        ops.insert(pos);
        let (a, b) = (op.operands.first().copied(), op.operands.get(1).copied());
        match op.name.as_str() {
            "arith.addi" => {
                stack.push((a?, scale.clone(), false));
                stack.push((b?, scale, false));
            }
            "arith.subi" => {
                stack.push((a?, scale.clone(), false));
                stack.push((b?, -scale, false));
            }
            "arith.muli" => {
                let (x, c) = match (splat(flow, a?), splat(flow, b?)) {
                    (None, Some(c)) => (a?, c),
                    (Some(c), None) => (b?, c),
                    _ => return None,
                };
                ops.insert(flow.defining_op(if x == a? { b? } else { a? })?);
                stack.push((x, scale * c, false));
            }
            "arith.extui" => {
                let from = op.operand_types[0].clone()?;
                let to = op.result_types[0].clone()?;
                if to != ty || from.lanes() != ty.lanes() || from.dims.len() != 1 || from.elem_bits != 8 {
                    return None;
                }
                input_bits = Some(from.elem_bits);
                *weights.entry(a?).or_default() += scale;
            }
            _ => return None,
        }
    }
    let half = &modulus >> 1u32;
    let terms: Vec<(usize, i64)> = weights
        .into_iter()
        .filter_map(|(v, w)| {
            let mut w = ((w % &modulus) + &modulus) % &modulus;
            if w >= half {
                w -= &modulus;
            }
            let w = i64::try_from(w).ok()?;
            (w != 0).then_some((v, w))
        })
        .collect();
    (MIN_TERMS..=MAX_TERMS).contains(&terms.len()).then_some(LinearForm {
        ops,
        terms,
        lanes: ty.lanes(),
        elem_bits: ty.elem_bits,
        input_bits: input_bits?,
    })
}

/// The terms in pairs whose products a pairwise multiply-add of signed
/// bytes holds without saturating (`|w0| + |w1| ≤ 128`): the largest
/// weight with the smallest, a term left over paired with weight 0 on the
/// same input. `None` if a weight is not a signed byte or a pair would
/// overflow.
pub fn pairs(terms: &[(usize, i64)]) -> Option<Vec<[(usize, i64); 2]>> {
    let mut sorted = terms.to_vec();
    sorted.sort_by_key(|(v, w)| (std::cmp::Reverse(w.unsigned_abs()), *v));
    if sorted.iter().any(|(_, w)| !(-128..=127).contains(w)) {
        return None;
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0usize, sorted.len());
    while i < j {
        let first = sorted[i];
        let second = if j - 1 > i {
            j -= 1;
            sorted[j]
        } else {
            (first.0, 0)
        };
        i += 1;
        if first.1.unsigned_abs() + second.1.unsigned_abs() > 128 {
            return None;
        }
        out.push([first, second]);
    }
    Some(out)
}

/// How the pairs' bytes are laid out: registers as wide as the inputs
/// (`bits`), the low and the high halves of each 128-bit lane of the two
/// inputs interleaved (the target's unpack within lanes), two registers per
/// pair; two chains, each over half the result's lanes in a permuted
/// order, put back in order at the end. A full interleave of the inputs
/// would cross 128-bit lanes on every pair (on Zen 4 at 512 bits, slower
/// than LLVM's chain though llvm-mca counts it cheaper); this crosses them
/// once, at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub bits: u32,
}

impl Layout {
    /// Inputs of whole 128-bit lanes, no wider than a register, and a
    /// result twice as wide as the inputs' elements.
    pub fn of(form: &LinearForm, register_bits: u32) -> Option<Layout> {
        let bits = form.lanes * form.input_bits;
        (form.elem_bits == 2 * form.input_bits && bits % 128 == 0 && bits <= register_bits).then_some(Layout { bits })
    }

    /// The swizzles making the two registers of a pair from its two inputs.
    pub fn interleaves(&self) -> Vec<Swizzle> {
        let n = self.bits / 8;
        let make = |name, mask: Vec<u32>| Swizzle { name, elem_bits: 8, operand_bits: self.bits, operands: 2, mask };
        let half = |from: u32| -> Vec<u32> {
            (0..n / 16).flat_map(|l| (from..from + 8).flat_map(move |i| [16 * l + i, n + 16 * l + i])).collect()
        };
        vec![make("unpack_lo_lanes", half(0)), make("unpack_hi_lanes", half(8))]
    }

    /// The swizzle putting the two chains' lanes back in order: 128-bit
    /// blocks of the low and the high chain alternating.
    pub fn restore(&self) -> Swizzle {
        let m = self.bits / 64;
        let mask = (0..self.bits / 128).flat_map(|c| [2 * c, 2 * c + 1, m + 2 * c, m + 2 * c + 1]).collect();
        Swizzle { name: "restore_lanes", elem_bits: 64, operand_bits: self.bits, operands: 2, mask }
    }
}

/// The bytes of a register of pairs' weights: `w0 w1 w0 w1 …`.
pub fn pair_weights(pair: &[(usize, i64); 2], register_bits: u32) -> Vec<BigInt> {
    (0..register_bits / 8).map(|i| BigInt::from(pair[(i % 2) as usize].1)).collect()
}

/// Appends `op(operands) : result` to `ops`, result value `result`.
fn push(
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

fn vector(lanes: u32, elem_bits: u32) -> Ty {
    Ty { dims: vec![lanes], elem_bits }
}

/// Fresh value numbers for ops a block does not have.
struct Fresh(usize);

impl Fresh {
    fn next(&mut self) -> usize {
        self.0 += 1;
        self.0
    }
}

/// Appends a pair's computation to `ops`: the weights (a constant), then
/// the register of interleaved bytes `bytes` summed pairwise by them into
/// lanes twice as wide, plus `sum` if given. Its result value.
fn push_pair(ops: &mut Vec<BlockOp>, fresh: &mut Fresh, bytes: usize, weights: &[BigInt], sum: Option<usize>) -> usize {
    let n = weights.len() as u32;
    let words = vector(n / 2, 16);
    let w = fresh.next();
    push(ops, "arith.constant", vec![], (w, vector(n, 8)), vec![("value".into(), Attr::Elements(weights.to_vec()))]);
    let parity = |k: u32| vec![("mask".into(), Attr::Ints((0..n / 2).map(|i| i64::from(2 * i + k)).collect()))];
    let mut products = Vec::new();
    for k in 0..2u32 {
        let (x, c) = (fresh.next(), fresh.next());
        push(ops, "vector.shuffle", vec![(bytes, vector(n, 8)); 2], (x, vector(n / 2, 8)), parity(k));
        push(ops, "vector.shuffle", vec![(w, vector(n, 8)); 2], (c, vector(n / 2, 8)), parity(k));
        let (xe, ce, p) = (fresh.next(), fresh.next(), fresh.next());
        push(ops, "arith.extui", vec![(x, vector(n / 2, 8))], (xe, words.clone()), vec![]);
        push(ops, "arith.extsi", vec![(c, vector(n / 2, 8))], (ce, words.clone()), vec![]);
        push(ops, "arith.muli", vec![(xe, words.clone()), (ce, words.clone())], (p, words.clone()), vec![]);
        products.push(p);
    }
    let pair = fresh.next();
    push(
        ops,
        "arith.addi",
        vec![(products[0], words.clone()), (products[1], words.clone())],
        (pair, words.clone()),
        vec![],
    );
    let Some(sum) = sum else { return pair };
    let total = fresh.next();
    push(ops, "arith.addi", vec![(sum, words.clone()), (pair, words.clone())], (total, words), vec![]);
    total
}

/// The window a pair is posed as: a register of interleaved bytes `t`
/// (value 0) times the weights' register (a constant, value 3), summed pairwise
/// into lanes twice as wide, plus the chain so far (value 2) when
/// `accumulate`. Its ops and the root's position.
pub fn pair_window(weights: &[BigInt], accumulate: bool) -> (Vec<BlockOp>, usize) {
    let mut ops = Vec::new();
    push_pair(&mut ops, &mut Fresh(2), 0, weights, accumulate.then_some(2));
    let root = ops.len() - 1;
    (ops, root)
}

/// The chain as the pairs compute it, in `arith` and `vector` ops over the
/// chain's inputs (their value numbers, `inputs` their type): each pair's
/// bytes interleaved as the layout has them, its products summed into the
/// chain so far, and the chains put back in order. What the program
/// computes with each pair's program in place of the pair's window: the
/// chain equal to this and each pair's program equal to its window make
/// the program equal to the chain. Its ops and the root's position.
pub fn paired_block(pairs: &[[(usize, i64); 2]], layout: &Layout, inputs: &Ty) -> (Vec<BlockOp>, usize) {
    let register_bits = layout.bits;
    let mut ops = Vec::new();
    let mut fresh = Fresh(usize::MAX / 2);
    let words = vector(register_bits / 16, 16);
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
                (bytes, vector(register_bits / 8, 8)),
                vec![("mask".into(), mask)],
            );
            sum = Some(push_pair(&mut ops, &mut fresh, bytes, &pair_weights(pair, register_bits), sum));
        }
        chains.extend(sum);
    }
    if let [lo, hi] = chains.as_slice() {
        let restore = layout.restore();
        // The restoring swizzle's 64-bit blocks as 16-bit lanes.
        let mask = restore.mask.iter().flat_map(|b| (0..4).map(move |i| i64::from(4 * b + i))).collect();
        let out = fresh.next();
        push(
            &mut ops,
            "vector.shuffle",
            vec![(*lo, words.clone()), (*hi, words.clone())],
            (out, vector(2 * register_bits / 16, 16)),
            vec![("mask".into(), Attr::Ints(mask))],
        );
    }
    let root = ops.len() - 1;
    (ops, root)
}

/// A program found for a pair's window, with where each of its leaves
/// comes from: the chain so far (value 2), the interleaved bytes (value 0)
/// or the weights (value 3), as [`pair_window`] numbers them.
pub struct PairProgram {
    pub program: Program,
    pub leaf_values: Vec<usize>,
}

/// The program of the whole chain over the window's leaves
/// (`window_leaves`, value numbers) and one constant leaf per pair after
/// them (pair `k`'s weights at `window_leaves.len() + k`): per chain of
/// the layout, each pair's interleave then its program, reading the chain
/// so far; then the chains put back in order. `first` and `next` are the
/// programs of a pair's window without and with the chain so far.
pub fn chain_program(
    window_leaves: &[usize],
    pairs: &[[(usize, i64); 2]],
    layout: &Layout,
    first: &PairProgram,
    next: &PairProgram,
) -> Option<Program> {
    let mut steps: Vec<Step> = Vec::new();
    let leaf = |v: usize| window_leaves.iter().position(|l| *l == v).map(Source::Leaf);
    let mut chains = Vec::new();
    for interleave in layout.interleaves() {
        let mut sum: Option<Source> = None;
        for (k, pair) in pairs.iter().enumerate() {
            steps.push(Step {
                op: StepOp::Swizzle(interleave.clone()),
                operands: vec![leaf(pair[0].0)?, leaf(pair[1].0)?],
            });
            let bytes = Source::Step(steps.len() - 1);
            let weights = Source::Leaf(window_leaves.len() + k);
            let pair_program = if sum.is_some() { next } else { first };
            let offset = steps.len();
            for step in &pair_program.program.steps {
                let operands = step
                    .operands
                    .iter()
                    .map(|s| match *s {
                        Source::Step(j) => Some(Source::Step(offset + j)),
                        Source::Leaf(l) => match pair_program.leaf_values.get(l)? {
                            0 => Some(bytes),
                            3 => Some(weights),
                            2 => sum,
                            _ => None,
                        },
                    })
                    .collect::<Option<Vec<_>>>()?;
                steps.push(Step { op: step.op.clone(), operands });
            }
            sum = Some(Source::Step(steps.len() - 1));
        }
        chains.push(sum?);
    }
    steps.push(Step { op: StepOp::Swizzle(layout.restore()), operands: chains });
    Some(Program { steps })
}

/// The constants a chain's program reads after the window's leaves: each
/// pair's weights, as a register of bytes.
pub fn weight_constants(pairs: &[[(usize, i64); 2]], register_bits: u32) -> Vec<(Ty, BigUint, NewAttr)> {
    pairs
        .iter()
        .map(|p| {
            let xs = pair_weights(p, register_bits);
            let bits = xs.iter().rev().fold(BigUint::default(), |acc, x| {
                (acc << 8u32) | BigUint::from(u8::try_from(x & BigInt::from(0xff)).unwrap_or(0))
            });
            let ty = Ty { dims: vec![register_bits / 8], elem_bits: 8 };
            (ty.clone(), bits, NewAttr::Dense(ty, xs))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_put_large_weights_with_small_ones() {
        let terms = [(1, 36), (2, 1), (3, 24), (4, 4), (5, -6)];
        let p = pairs(&terms).unwrap();
        assert_eq!(p, vec![[(1, 36), (2, 1)], [(3, 24), (4, 4)], [(5, -6), (5, 0)]]);
        // A weight past a signed byte, a pair past 128 in sum.
        assert_eq!(pairs(&[(1, 200), (2, 1), (3, 1)]), None);
        assert_eq!(pairs(&[(1, 100), (2, 90), (3, 80), (4, 70)]), None);
    }

    #[test]
    fn lanes_are_unpacked_within_128_bit_blocks_and_put_back() {
        let z = Layout { bits: 256 }.interleaves();
        // Low half of each 128-bit lane: bytes 0..8 and 16..24 of each input.
        assert_eq!(&z[0].mask[..4], &[0, 32, 1, 33]);
        assert_eq!(&z[0].mask[16..18], &[16, 48]);
        assert_eq!(&z[1].mask[..2], &[8, 40]);
        let r = Layout { bits: 256 }.restore();
        // 64-bit blocks: low chain's lane 0, high chain's lane 0, low's lane 1, high's lane 1.
        assert_eq!(r.mask, vec![0, 1, 4, 5, 2, 3, 6, 7]);
    }
}
