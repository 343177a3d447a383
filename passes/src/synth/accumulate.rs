//! Sums of products by constants, one input at a time: `Σ w_k · zext(x_k)`
//! over narrow unsigned vectors `x_k` ([`super::products::linear_form`]),
//! on targets whose widening multiply-accumulates keep each lane in place
//! (`acc ± zext(x)·zext(w)`, lanes twice as wide as the bytes) and read
//! either half of a register of bytes in place
//! (`Tuning::lanewise_widening_macs`).
//!
//! There the pairing of [`super::products`] has nothing to pair with (no
//! pairwise multiply-add of bytes), and the search, given the chain in
//! pieces, meets products by 16-bit constants: no instruction reads a
//! 16-bit weight and a byte. So the chain is read as its linear form and
//! each term is posed as its own small window, its weight a register of
//! bytes (`|w|`): `zext(x)·zext(c)` for the first term, `acc + zext(x)·zext(c)`
//! or `acc − zext(x)·zext(c)` after it (`acc ± zext(x)` at weight ±1). Each
//! window is searched once per shape with the weights as an input, so its
//! program holds at every weight. Where the sum spans two registers, each
//! half of the lanes is its own chain over the halves of the inputs, and
//! the halves are concatenated at the end.
//!
//! The whole program is then proved equal to the chain like any other
//! rewrite: the terms' programs each by its search, and the chain equal to
//! the terms' windows strung together ([`accumulated_block`]) by one sum
//! proof.

use super::attr::{Attr, NewAttr};
use super::block::BlockOp;
use super::pair_windows::{push, vector, Fresh};
use super::products::{LinearForm, PartProgram};
use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::types::Ty;
use num_bigint::{BigInt, BigUint};

/// What a term's widened input is scaled by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Factor {
    /// Weight ±1: the extension alone.
    Unit,
    /// A product by a register of byte weights.
    Product,
    /// A left shift by this many bits (a weight ±2^k, where the chain
    /// shifts: a widening shift runs beside the multiplies, not on their
    /// units).
    Shift(u32),
}

/// How a term meets the chain: the shape of its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermShape {
    /// Added into the chain so far (else it starts the chain).
    pub accumulate: bool,
    /// Subtracted from the chain so far.
    pub subtract: bool,
    pub factor: Factor,
}

impl TermShape {
    /// The shape of a term of weight `w`, first in its chain or not;
    /// powers of two from `2^from` as shifts where `shifts` is `Some(from)`.
    pub fn of(w: i64, first: bool, shifts: Option<u32>) -> TermShape {
        let m = w.unsigned_abs();
        let factor = match m {
            1 => Factor::Unit,
            _ if m.is_power_of_two() && shifts.is_some_and(|from| m.trailing_zeros() >= from) => {
                Factor::Shift(m.trailing_zeros())
            }
            _ => Factor::Product,
        };
        TermShape { accumulate: !first, subtract: w < 0, factor }
    }
}

/// The chain's lanes in registers: `pieces` chains (one or two), each over
/// `piece_lanes` lanes of `elem_bits` bits, the inputs' bytes of one piece
/// half a register or less.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneLayout {
    pub lanes: u32,
    pub elem_bits: u32,
    pub pieces: u32,
}

impl LaneLayout {
    /// The layout of `form` at registers of `register_bits`: bytes widened
    /// to twice their size, the sum in one or two registers.
    pub fn of(form: &LinearForm, register_bits: u32) -> Option<LaneLayout> {
        if form.input_bits != 8 || form.elem_bits != 16 {
            return None;
        }
        let bits = form.lanes * form.elem_bits;
        let pieces = if bits <= register_bits { 1 } else { bits / register_bits };
        (pieces * register_bits.min(bits) == bits && pieces <= 2 && form.lanes.is_multiple_of(pieces))
            .then_some(LaneLayout { lanes: form.lanes, elem_bits: form.elem_bits, pieces })
    }

    pub fn piece_lanes(&self) -> u32 {
        self.lanes / self.pieces
    }

    /// The swizzle taking piece `p` of an input's bytes, where there are
    /// two pieces.
    fn piece_of_input(&self, p: u32) -> Option<Swizzle> {
        let n = self.piece_lanes();
        (self.pieces > 1).then(|| Swizzle {
            name: if p == 0 { "low_half" } else { "high_half" },
            elem_bits: 8,
            operand_bits: self.lanes * 8,
            operands: 1,
            mask: (p * n..(p + 1) * n).collect(),
        })
    }

    /// The swizzle putting the pieces' sums together, where there are two.
    fn concatenation(&self) -> Option<Swizzle> {
        let n = self.piece_lanes();
        (self.pieces > 1).then(|| Swizzle {
            name: "concat",
            elem_bits: self.elem_bits,
            operand_bits: n * self.elem_bits,
            operands: 2,
            mask: (0..2 * n).collect(),
        })
    }
}

/// Terms one accumulator takes in a row, per piece of the result: each
/// multiply-accumulate waits for the one before it, so a long chain is
/// bound by their latency, not by the units (a 20-term Sobel gradient in
/// one register: 19.5 cycles by llvm-mca on Neoverse V1 against LLVM's
/// 17.4, with fewer instructions). The pieces of a result, and chains
/// rewritten together (a Sobel filter's two gradients), are accumulated
/// side by side.
pub const SERIAL_TERMS: usize = 6;

/// The terms split into accumulators, each in the order it takes them:
/// `⌈terms / (SERIAL_TERMS · side_by_side)⌉` of them (`side_by_side`
/// accumulations besides run at once) where as many weights past
/// 1 are positive, each started by a product by one of the largest (an
/// extension alone or a negative product would need an instruction of its
/// own), the other terms dealt out in turn by input; the accumulators are
/// added at the end. `None` if a weight's magnitude is past a byte or no
/// weight other than 1 is positive.
pub fn accumulations(terms: &[(usize, i64)], side_by_side: usize) -> Option<Vec<Vec<(usize, i64)>>> {
    if terms.iter().any(|(_, w)| w.unsigned_abs() > 255) {
        return None;
    }
    let mut starts: Vec<(usize, i64)> = terms.iter().copied().filter(|(_, w)| *w > 1).collect();
    starts.sort_by_key(|(v, w)| (std::cmp::Reverse(*w), *v));
    let wanted = terms.len().div_ceil(SERIAL_TERMS * side_by_side.max(1));
    starts.truncate(wanted.max(1));
    if starts.is_empty() {
        return None;
    }
    let mut out: Vec<Vec<(usize, i64)>> = starts.iter().map(|t| vec![*t]).collect();
    let count = out.len();
    for (k, t) in terms.iter().filter(|t| !starts.contains(t)).enumerate() {
        out[k % count].push(*t);
    }
    Some(out)
}

/// The weights' magnitudes the chain multiplies by (not 1, nor a power of
/// two it shifts by, see [`TermShape::of`]), each once, in the order the chain first reads
/// them: the constants a chain's program reads after the window's leaves.
pub fn magnitudes(terms: &[(usize, i64)], shifts: Option<u32>) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for (_, w) in terms {
        let m = w.unsigned_abs();
        if TermShape::of(*w, false, shifts).factor == Factor::Product && !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// The constants of [`magnitudes`] as registers of `piece_lanes` bytes.
pub fn weight_constants(
    terms: &[(usize, i64)],
    layout: &LaneLayout,
    shifts: Option<u32>,
) -> Vec<(Ty, BigUint, NewAttr)> {
    let n = layout.piece_lanes();
    magnitudes(terms, shifts)
        .into_iter()
        .map(|m| {
            let ty = Ty { dims: vec![n], elem_bits: 8 };
            let bits = (0..n).fold(BigUint::default(), |acc, _| (acc << 8u32) | BigUint::from(m));
            (ty.clone(), bits, NewAttr::Dense(ty, vec![BigInt::from(m); n as usize]))
        })
        .collect()
}

/// Appends a term to `ops`: the bytes `bytes` (`n` lanes) widened, times
/// the widened weights `weights` or shifted left as `shape.factor` says,
/// added into or subtracted from `sum` where `shape.accumulate`. Its
/// result value.
fn push_term(
    ops: &mut Vec<BlockOp>,
    fresh: &mut Fresh,
    (bytes, weights, sum): (usize, usize, usize),
    shape: TermShape,
    n: u32,
    elem_bits: u32,
) -> usize {
    let (narrow, wide) = (vector(n, 8), vector(n, elem_bits));
    let widened = fresh.next();
    push(ops, "arith.extui", vec![(bytes, narrow.clone())], (widened, wide.clone()), vec![]);
    let mut term = widened;
    match shape.factor {
        Factor::Unit => {}
        Factor::Product => {
            let (w, p) = (fresh.next(), fresh.next());
            push(ops, "arith.extui", vec![(weights, narrow)], (w, wide.clone()), vec![]);
            push(ops, "arith.muli", vec![(widened, wide.clone()), (w, wide.clone())], (p, wide.clone()), vec![]);
            term = p;
        }
        Factor::Shift(k) => {
            let (c, p) = (fresh.next(), fresh.next());
            let value = vec![("value".into(), Attr::Elements(vec![BigInt::from(k); n as usize]))];
            push(ops, "arith.constant", vec![], (c, wide.clone()), value);
            push(ops, "arith.shli", vec![(widened, wide.clone()), (c, wide.clone())], (p, wide.clone()), vec![]);
            term = p;
        }
    }
    if !shape.accumulate {
        return term;
    }
    let out = fresh.next();
    let name = if shape.subtract { "arith.subi" } else { "arith.addi" };
    push(ops, name, vec![(sum, wide.clone()), (term, wide.clone())], (out, wide), vec![]);
    out
}

/// The window a term of `shape` is posed as: `n` bytes (value 0) times
/// `n` byte weights (value 3, an input: the product is exact, so its
/// program holds at every weight) or shifted by a constant, into
/// `elem_bits`-bit lanes, with the chain so far (value 2). Its ops and the
/// root's position.
pub fn term_window(shape: TermShape, n: u32, elem_bits: u32) -> (Vec<BlockOp>, usize) {
    let mut ops = Vec::new();
    push_term(&mut ops, &mut Fresh(3), (0, 3, 2), shape, n, elem_bits);
    let root = ops.len() - 1;
    (ops, root)
}

/// The program of the whole chain over the window's leaves
/// (`window_leaves`, value numbers) and the weights' constants after them
/// (magnitude `m` at `window_leaves.len()` plus its place in
/// [`magnitudes`] of the terms in order): per piece, per accumulator, each
/// term's bytes (the piece's half of its input, read in place) then its
/// program, reading that accumulator so far; the piece's accumulators
/// added by instruction `add` (a candidate) in turn; then the pieces
/// concatenated. `accumulators` as [`accumulations`] has them, powers of
/// two shifted as `shifts` says, `program` each shape's program.
pub fn chain_program(
    window_leaves: &[usize],
    accumulators: &[Vec<(usize, i64)>],
    (layout, shifts, add): (&LaneLayout, Option<u32>, Option<usize>),
    program: &dyn Fn(TermShape) -> Option<PartProgram>,
) -> Option<Program> {
    let weights = magnitudes(&accumulators.concat(), shifts);
    let mut steps: Vec<Step> = Vec::new();
    let mut sums = Vec::new();
    for p in 0..layout.pieces {
        let mut total: Option<Source> = None;
        for terms in accumulators {
            let mut sum: Option<Source> = None;
            for (k, &(v, w)) in terms.iter().enumerate() {
                let input = Source::Leaf(window_leaves.iter().position(|l| *l == v)?);
                let bytes = match layout.piece_of_input(p) {
                    Some(z) => {
                        steps.push(Step { op: StepOp::Swizzle(z), operands: vec![input] });
                        Source::Step(steps.len() - 1)
                    }
                    None => input,
                };
                let weight =
                    weights.iter().position(|m| *m == w.unsigned_abs()).map(|i| Source::Leaf(window_leaves.len() + i));
                // A shift's constant is an immediate, never read.
                sum = Some(program(TermShape::of(w, k == 0, shifts))?.append(&mut steps, (bytes, sum, weight))?);
            }
            total = match total {
                None => sum,
                Some(t) => {
                    let candidate = add?;
                    steps.push(Step { op: StepOp::Instr { candidate, immediates: vec![] }, operands: vec![t, sum?] });
                    Some(Source::Step(steps.len() - 1))
                }
            };
        }
        sums.push(total?);
    }
    if let Some(z) = layout.concatenation() {
        steps.push(Step { op: StepOp::Swizzle(z), operands: sums });
    }
    Some(Program { steps })
}

/// The instructions of a chain's program alone, for pricing: the
/// swizzles cost nothing on a target of `Tuning::lanewise_widening_macs`
/// (a widening instruction reads either half of a register in place; the
/// pieces' sums are the result's registers as they are). Not a program to
/// run: its steps' operands still count the swizzles.
pub fn instructions_only(program: &Program) -> Program {
    Program { steps: program.steps.iter().filter(|s| matches!(s.op, StepOp::Instr { .. })).cloned().collect() }
}

/// The chain as the terms compute it, in `arith` and `vector` ops over
/// the chain's inputs (their value numbers, `inputs` their type): per
/// piece, per accumulator, each term's bytes (its half of the input), its
/// window with the weights' constant, into that accumulator; the
/// accumulators added in turn; then the pieces concatenated. What the program computes with each term's program in
/// place of its window (powers of two shifted as `shifts` says). Its ops
/// and the root's position.
pub fn accumulated_block(
    accumulators: &[Vec<(usize, i64)>],
    (layout, shifts): (&LaneLayout, Option<u32>),
    inputs: &Ty,
) -> (Vec<BlockOp>, usize) {
    let n = layout.piece_lanes();
    let mut ops = Vec::new();
    let mut fresh = Fresh(usize::MAX / 2);
    let mut sums = Vec::new();
    let piece = vector(n, layout.elem_bits);
    for p in 0..layout.pieces {
        let mut total: Option<usize> = None;
        for terms in accumulators {
            let mut sum = 0;
            for (k, &(v, w)) in terms.iter().enumerate() {
                let bytes = match layout.piece_of_input(p) {
                    Some(z) => {
                        let out = fresh.next();
                        let mask = Attr::Ints(z.mask.iter().map(|m| i64::from(*m)).collect());
                        let operands = vec![(v, inputs.clone()), (v, inputs.clone())];
                        push(&mut ops, "vector.shuffle", operands, (out, vector(n, 8)), vec![("mask".into(), mask)]);
                        out
                    }
                    None => v,
                };
                let weights = fresh.next();
                let shape = TermShape::of(w, k == 0, shifts);
                if shape.factor == Factor::Product {
                    let value =
                        vec![("value".into(), Attr::Elements(vec![BigInt::from(w.unsigned_abs()); n as usize]))];
                    push(&mut ops, "arith.constant", vec![], (weights, vector(n, 8)), value);
                }
                sum = push_term(&mut ops, &mut fresh, (bytes, weights, sum), shape, n, layout.elem_bits);
            }
            total = Some(match total {
                None => sum,
                Some(t) => {
                    let out = fresh.next();
                    push(
                        &mut ops,
                        "arith.addi",
                        vec![(t, piece.clone()), (sum, piece.clone())],
                        (out, piece.clone()),
                        vec![],
                    );
                    out
                }
            });
        }
        sums.extend(total);
    }
    if let Some(z) = layout.concatenation() {
        let out = fresh.next();
        let operands = sums.iter().map(|s| (*s, piece.clone())).collect();
        let mask = Attr::Ints(z.mask.iter().map(|m| i64::from(*m)).collect());
        push(&mut ops, "vector.shuffle", operands, (out, vector(2 * n, layout.elem_bits)), vec![("mask".into(), mask)]);
    }
    let root = ops.len() - 1;
    (ops, root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::block::Dataflow;

    #[test]
    fn the_largest_positive_weights_start_the_accumulators() {
        let terms = [(1, 1), (2, -6), (3, 4), (4, 6), (5, -1)];
        let one = accumulations(&terms, 1).unwrap();
        assert_eq!(one, vec![vec![(4, 6), (1, 1), (2, -6), (3, 4), (5, -1)]]);
        assert_eq!(magnitudes(&one[0], None), vec![6, 4]);
        assert_eq!(magnitudes(&one[0], Some(1)), vec![6]);
        assert_eq!(magnitudes(&one[0], Some(3)), vec![6, 4]);
        // Past SERIAL_TERMS a piece: two accumulators, the two largest positive weights first.
        let long: Vec<(usize, i64)> = (0..8).map(|v| (v, [1, 5, -3, 2, 1, -1, 7, 1][v])).collect();
        let two = accumulations(&long, 1).unwrap();
        assert_eq!(two, vec![vec![(6, 7), (0, 1), (3, 2), (5, -1)], vec![(1, 5), (2, -3), (4, 1), (7, 1)]]);
        // Two accumulations side by side (two pieces, or two chains): one accumulator will do.
        assert_eq!(accumulations(&long, 2).unwrap().len(), 1);
        // Nothing to start with: units and negative products only; a weight past a byte.
        assert_eq!(accumulations(&[(1, 1), (2, -6)], 1), None);
        assert_eq!(accumulations(&[(1, 300), (2, 2)], 1), None);
    }

    #[test]
    fn a_sum_of_two_registers_is_two_pieces() {
        let form =
            |lanes, elem_bits| LinearForm { ops: Default::default(), terms: vec![], lanes, elem_bits, input_bits: 8 };
        assert_eq!(LaneLayout::of(&form(16, 16), 128).map(|l| (l.pieces, l.piece_lanes())), Some((2, 8)));
        assert_eq!(LaneLayout::of(&form(8, 16), 128).map(|l| (l.pieces, l.piece_lanes())), Some((1, 8)));
        assert_eq!(LaneLayout::of(&form(4, 16), 128).map(|l| (l.pieces, l.piece_lanes())), Some((1, 4)));
        // Three registers or more, and sums four times as wide as the bytes.
        assert_eq!(LaneLayout::of(&form(32, 16), 128), None);
        assert_eq!(LaneLayout::of(&form(16, 32), 128), None);
    }

    /// The accumulated block computes `Σ w_k · zext(x_k)` lane by lane,
    /// powers of two multiplied or shifted.
    #[test]
    fn the_accumulated_block_is_the_sum() {
        for shifts in [None, Some(1), Some(3)] {
            accumulated_block_is_the_sum(shifts);
        }
    }

    fn accumulated_block_is_the_sum(shifts: Option<u32>) {
        use dialectgen::eval::Concrete;
        let weights = [
            (0, 1),
            (1, 6),
            (2, -4),
            (3, -1),
            (4, 12),
            (5, 8),
            (6, 3),
            (7, 2),
            (8, -2),
            (9, 5),
            (10, 1),
            (11, 2),
            (12, 1),
        ];
        // Two accumulators a piece.
        let terms = accumulations(&weights, 1).unwrap();
        assert_eq!(terms.len(), 3);
        let layout = LaneLayout { lanes: 16, elem_bits: 16, pieces: 2 };
        let (ops, root) = accumulated_block(&terms, (&layout, shifts), &vector(16, 8));
        // Weights -4, 8, 2, -2 and 2 shifted from 2^1 up, 8 alone from 2^3, once per piece.
        let shifted = match shifts {
            None => 0,
            Some(1) => 10,
            _ => 2,
        };
        assert_eq!(ops.iter().filter(|o| o.name == "arith.shli").count(), shifted);
        let flow = Dataflow::new(&ops);
        let window = flow.close((0..ops.len()).collect(), root);
        let byte = |v: usize, i: u64| (v as u64 * 53 + i * 29 + i * i * 7) % 256;
        let inputs: Vec<BigUint> = window
            .leaves
            .iter()
            .map(|v| (0..16u64).rev().fold(BigUint::default(), |acc, i| (acc << 8u32) | BigUint::from(byte(*v, i))))
            .collect();
        let got = crate::synth::screen::eval_window(&mut Concrete, &flow, &window, &inputs).unwrap().0.bits;
        for i in 0..16u64 {
            let want = weights.iter().fold(0i64, |acc, (v, w)| acc + w * byte(*v, i) as i64).rem_euclid(1 << 16);
            let lane = (&got >> (16 * i as u32)) & BigUint::from(0xffffu32);
            assert_eq!(lane, BigUint::from(want as u64), "lane {i}");
        }
    }
}
