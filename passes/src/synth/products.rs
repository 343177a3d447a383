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
//! search finds the target's instruction for it (a pairwise multiply-add of
//! bytes, `vpmaddubsw`, and an add), and the programs are strung together
//! over the interleaved pairs.
//!
//! Where the target's multiply-adds sum pairs ([`Arrangement::LaneUnpack`]),
//! the interleaving is the unpack within 128-bit lanes (low and high halves
//! of each lane, registers as wide as the inputs): two chains, each over
//! half the result's lanes in a permuted order, and the lanes put back in
//! order at the end by one shuffle of 128-bit blocks. Where its products
//! widen into register pairs ([`Arrangement::Halves`]), the interleaved
//! bytes are multiplied into the two halves of a register pair instead of
//! summed (the first input's products in one, the
//! second's in the other), and the halves are added at the end
//! ([`Arrangement`]).
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

/// Whether op `pos` may be read outside a chain as well as in it: an
/// extension of an input, or its product (or left shift) by a splat
/// constant.
fn shareable(flow: &Dataflow, pos: usize) -> bool {
    let op = &flow.ops[pos];
    let extension = |v: usize| flow.defining_op(v).is_some_and(|d| flow.ops[d].name == "arith.extui");
    match (op.name.as_str(), op.operands.as_slice()) {
        ("arith.extui", _) => true,
        ("arith.muli", [a, b]) => {
            (extension(*a) && splat(flow, *b).is_some()) || (extension(*b) && splat(flow, *a).is_some())
        }
        ("arith.shli", [a, b]) => extension(*a) && splat(flow, *b).is_some(),
        _ => false,
    }
}

/// Reads the single-use tree of adds, subtractions, and products and left
/// shifts by splat constants ending at op `root` (its inputs' extensions may have other
/// readers) as a sum of products of
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
        let op = &flow.ops[pos];
        // Inner values read here alone; an input's extension, or its
        // product by a constant, may be read elsewhere too (a Sobel
        // filter's two gradients share taps, and the products of the taps
        // they weigh alike): it stays for its other readers.
        if !is_root && flow.readers(value).len() != 1 && !shareable(flow, pos) {
            return None;
        }
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
            "arith.shli" => {
                let k = u32::try_from(splat(flow, b?)?).ok().filter(|k| *k < ty.elem_bits)?;
                ops.insert(flow.defining_op(b?)?);
                stack.push((a?, scale << k, false));
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
    let terms = signed_weights(weights, &modulus);
    (MIN_TERMS..=MAX_TERMS).contains(&terms.len()).then_some(LinearForm {
        ops,
        terms,
        lanes: ty.lanes(),
        elem_bits: ty.elem_bits,
        input_bits: input_bits?,
    })
}

/// Each input's nonzero weight, reduced modulo `modulus` to the signed
/// range (a weight wider than 64 bits drops the input).
fn signed_weights(weights: BTreeMap<usize, BigInt>, modulus: &BigInt) -> Vec<(usize, i64)> {
    let half = modulus >> 1u32;
    weights
        .into_iter()
        .filter_map(|(v, w)| {
            let mut w = ((w % modulus) + modulus) % modulus;
            if w >= half {
                w -= modulus;
            }
            let w = i64::try_from(w).ok()?;
            (w != 0).then_some((v, w))
        })
        .collect()
}

/// The chains that read an extension this chain reads, or a product of
/// one (a Sobel filter's two gradients share their taps), each as its root
/// and linear form. `None` if such a value has a reader in no chain: it
/// stays whatever the chains become.
pub fn sibling_chains(flow: &Dataflow, form: &LinearForm, root: usize) -> Option<Vec<(usize, LinearForm)>> {
    let chain_op =
        |p: usize| matches!(flow.ops[p].name.as_str(), "arith.addi" | "arith.subi" | "arith.muli" | "arith.shli");
    let mut out: Vec<(usize, LinearForm)> = Vec::new();
    for &p in &form.ops {
        if !shareable(flow, p) {
            continue;
        }
        for &v in &flow.ops[p].results {
            for &reader in flow.readers(v).iter().filter(|r| !form.ops.contains(r)) {
                if out.iter().any(|(_, f)| f.ops.contains(&reader)) {
                    continue;
                }
                // Up the single-use arithmetic to the chain's root.
                let mut top = reader;
                while let [next] = flow.ops[top].results.first().map_or(&[][..], |r| flow.readers(*r)) {
                    if !chain_op(*next) {
                        break;
                    }
                    top = *next;
                }
                let sibling = linear_form(flow, top).filter(|f| f.ops.contains(&reader) && top != root)?;
                out.push((top, sibling));
            }
        }
    }
    Some(out)
}

/// How LLVM's own code for a chain is priced against a chain's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LlvmChain {
    /// LLVM's extensions read the inputs from memory (a `vpmovzxbw` with a
    /// memory operand), where the program's swizzles, reading each
    /// input twice, need it loaded into a register: the program pays one
    /// load per input register.
    pub extends_from_memory: bool,
    /// LLVM factors `w·a + w·b` into `w·(a + b)` (its reassociation): a
    /// product by a weight already multiplied costs nothing.
    pub factors_weights: bool,
}

impl LlvmChain {
    /// Both where the target's tuning says so
    /// (`Tuning::llvm_extends_and_factors`, as llc's loops show: gaussian7x7
    /// with 256-bit registers extends every input from memory, one product
    /// per weight, and its 25 pairs then ran 12% slower than LLVM's loop);
    /// else the plain count (which measured pairs at 1024 bits bear out:
    /// gaussian3x3, 31 → 28 packets).
    pub fn of_isa(isa: super::target::Isa) -> LlvmChain {
        let tuning = isa.tuning();
        let both = tuning.llvm_extends_and_factors;
        LlvmChain { extends_from_memory: both, factors_weights: both || tuning.llvm_factors_weights }
    }

    /// The loads a program over `chains` pays that LLVM's chain does not:
    /// one per register of each input read from memory, where LLVM
    /// extends from memory.
    pub fn program_loads(&self, flow: &Dataflow, chains: &[(usize, &LinearForm)], register_bits: u32) -> usize {
        if !self.extends_from_memory {
            return 0;
        }
        let inputs: BTreeSet<usize> =
            chains.iter().flat_map(|(_, f)| f.terms.iter().map(|(v, _)| *v)).filter(|v| flow.loaded(*v)).collect();
        chains.first().map_or(0, |(_, f)| inputs.len() * (f.lanes * f.input_bits).div_ceil(register_bits) as usize)
    }
}

/// What the ops of `chains` (their ops and roots) cost in registers of
/// `register_bits` (an op on two registers' worth is two instructions),
/// counting only [`chain_ops`]: what rewriting the chains together saves.
pub fn chains_cost(flow: &Dataflow, chains: &[(usize, &LinearForm)], register_bits: u32, llvm: LlvmChain) -> usize {
    chain_ops(flow, chains, llvm)
        .into_iter()
        .map(|p| &flow.ops[p])
        .map(|op| {
            op.result_types.iter().flatten().map(|t| t.bits().div_ceil(register_bits) as usize).max().unwrap_or(1)
        })
        .sum()
}

/// The positions of the ops of `chains` that rewriting them together
/// removes: ops whose results no op outside them reads, and the roots;
/// constants left out, and, where LLVM factors equal weights, each product
/// and left shift by a constant after the first by that constant.
pub fn chain_ops(flow: &Dataflow, chains: &[(usize, &LinearForm)], llvm: LlvmChain) -> Vec<usize> {
    let all: BTreeSet<usize> = chains.iter().flat_map(|(_, f)| f.ops.iter().copied()).collect();
    let stays = |p: usize| flow.ops[p].results.iter().any(|v| flow.readers(*v).iter().any(|r| !all.contains(r)));
    let mut scaled: BTreeSet<(String, BigInt)> = BTreeSet::new();
    let mut factored = |op: &BlockOp| {
        let by = op.operands.iter().rev().find_map(|v| splat(flow, *v));
        match (op.name.as_str(), by) {
            (name @ ("arith.muli" | "arith.shli"), Some(c)) if llvm.factors_weights => {
                !scaled.insert((name.to_string(), c))
            }
            _ => false,
        }
    };
    all.iter()
        .copied()
        .filter(|p| chains.iter().any(|(root, _)| root == p) || !stays(*p))
        .filter(|&p| flow.ops[p].name != "arith.constant" && !factored(&flow.ops[p]))
        .collect()
}

/// The terms in pairs whose weights are signed elements half as wide as
/// the result's (`weight_bits`) and, where the arrangement sums the two
/// products pairwise, whose sum a multiply-add of bytes holds without
/// saturating at 16-bit results (`|w0| + |w1| ≤ 128`): the largest weight
/// with the smallest, a term left over paired with weight 0 on the same
/// input. `None` if a weight does not fit or a pair would overflow.
pub fn pairs(terms: &[(usize, i64)], weight_bits: u32, arrangement: Arrangement) -> Option<Vec<[(usize, i64); 2]>> {
    let mut sorted = terms.to_vec();
    sorted.sort_by_key(|(v, w)| (std::cmp::Reverse(w.unsigned_abs()), *v));
    let top = 1i64 << (weight_bits - 1);
    if sorted.iter().any(|(_, w)| !(-top..top).contains(w)) {
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
        let pairwise = arrangement == Arrangement::LaneUnpack;
        if pairwise && weight_bits == 8 && first.1.unsigned_abs() + second.1.unsigned_abs() > 128 {
            return None;
        }
        out.push([first, second]);
    }
    Some(out)
}

/// How a pair's two inputs meet in one register and where its products
/// land.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arrangement {
    /// The low and the high halves of each 128-bit lane of the two inputs
    /// interleaved (an unpack within lanes), two registers per pair,
    /// each product summed pairwise with its neighbour: two chains, each
    /// over half the result's lanes in a permuted order, put back in order
    /// at the end. A full interleave would cross 128-bit lanes on every
    /// pair (on Zen 4 at 512 bits, slower than LLVM's chain though llvm-mca
    /// counts it cheaper); this crosses them once, at the end.
    LaneUnpack,
    /// The two inputs interleaved into one register (`x0 y0 x1 y1 …`),
    /// each byte's product widened in place of a pairwise sum: the even
    /// bytes' products (the first input's) in the result's low half and
    /// the odd bytes' (the second's) in its high half, as widening
    /// multiplies into register pairs (`vmpybusv`) give them. One chain, twice as
    /// many lanes as the result, each half in order: at the end the halves
    /// are added.
    Halves,
}

impl Arrangement {
    /// The arrangement of a target's instructions (`Tuning::pairs_in_halves`):
    /// pairwise multiply-adds, or widening multiply-accumulates into
    /// register pairs.
    pub fn of_isa(isa: super::target::Isa) -> Arrangement {
        if isa.tuning().pairs_in_halves {
            Arrangement::Halves
        } else {
            Arrangement::LaneUnpack
        }
    }

    /// Whether a pair's products, as the arrangement has them, are its
    /// window's for any weights of their width: then the window takes its
    /// weights as an input and one proof of a pair's program holds for
    /// every pair. Widening products are exact; a pairwise sum of two byte
    /// products (`vpmaddubsw`) saturates past 16 bits, so those pair
    /// programs are proved at each pair's weights.
    pub fn any_weights(self) -> bool {
        self == Arrangement::Halves
    }
}

/// How the pairs' bytes are laid out: inputs of `bits` bits of bytes,
/// results `elem_bits` wide, arranged as `arrangement` has them.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub bits: u32,
    pub elem_bits: u32,
    pub arrangement: Arrangement,
}

impl Layout {
    /// Inputs of bytes whose arrangement fits the target's registers:
    /// [`Arrangement::LaneUnpack`] takes whole 128-bit lanes, results of 16
    /// or 32 bits and each chain's result (see [`Layout::chain_bits`]) in a
    /// register; [`Arrangement::Halves`] takes 16-bit results and two
    /// inputs in a register.
    pub fn of(form: &LinearForm, register_bits: u32, arrangement: Arrangement) -> Option<Layout> {
        let layout = Layout { bits: form.lanes * form.input_bits, elem_bits: form.elem_bits, arrangement };
        let fits = match arrangement {
            Arrangement::LaneUnpack => {
                layout.bits % 128 == 0 && matches!(form.elem_bits, 16 | 32) && layout.chain_bits() <= register_bits
            }
            Arrangement::Halves => form.elem_bits == 16 && 2 * layout.bits <= register_bits,
        };
        (form.input_bits == 8 && fits).then_some(layout)
    }

    /// The bytes of a pair's register.
    pub fn pair_bytes(&self) -> u32 {
        match self.arrangement {
            Arrangement::LaneUnpack => self.bits / 8,
            Arrangement::Halves => 2 * self.bits / 8,
        }
    }

    /// The bits of one chain's result: half the result's lanes, or twice
    /// them.
    pub fn chain_bits(&self) -> u32 {
        match self.arrangement {
            Arrangement::LaneUnpack => self.bits / 16 * self.elem_bits,
            Arrangement::Halves => 2 * self.bits / 8 * self.elem_bits,
        }
    }

    /// The elements of a pair's weights' register, one per byte of the
    /// pair's register, as its bytes are interleaved: `w0 w1 w0 w1 …`.
    pub fn weights(&self, pair: &[(usize, i64); 2]) -> Vec<BigInt> {
        (0..self.pair_bytes()).map(|i| BigInt::from(pair[(i % 2) as usize].1)).collect()
    }

    /// The swizzles making the registers of a pair from its two inputs,
    /// one per chain.
    pub fn interleaves(&self) -> Vec<Swizzle> {
        let n = self.bits / 8;
        let make = |name, mask: Vec<u32>| Swizzle { name, elem_bits: 8, operand_bits: self.bits, operands: 2, mask };
        match self.arrangement {
            Arrangement::LaneUnpack => {
                let half = |from: u32| -> Vec<u32> {
                    (0..n / 16).flat_map(|l| (from..from + 8).flat_map(move |i| [16 * l + i, n + 16 * l + i])).collect()
                };
                vec![make("unpack_lo_lanes", half(0)), make("unpack_hi_lanes", half(8))]
            }
            Arrangement::Halves => vec![make("interleave", (0..n).flat_map(|i| [i, n + i]).collect())],
        }
    }

    /// The swizzle putting the two chains' lanes back in order
    /// ([`Arrangement::LaneUnpack`]): the blocks each 128-bit lane of the
    /// inputs became, of the low and the high chain alternating.
    pub fn restore(&self) -> Swizzle {
        let (chain, lanes) = (self.chain_bits(), self.bits / 128);
        let (m, b) = (chain / 64, chain / lanes / 64);
        let mask = (0..lanes).flat_map(|c| (c * b..(c + 1) * b).chain(m + c * b..m + (c + 1) * b)).collect();
        Swizzle { name: "restore_lanes", elem_bits: 64, operand_bits: chain, operands: 2, mask }
    }

    /// The two swizzles of the chain ([`Arrangement::Halves`]) whose sum is
    /// the result: its low half (the first inputs' products) and its high
    /// half (the second inputs').
    pub fn halves_in_order(&self) -> [Swizzle; 2] {
        let n = self.bits / 8;
        let make = |name, from: u32| Swizzle {
            name,
            elem_bits: self.elem_bits,
            operand_bits: self.chain_bits(),
            operands: 1,
            mask: (from..from + n).collect(),
        };
        [make("low_half", 0), make("high_half", n)]
    }
}

/// A program found for one part of a chain (a pair's window, as
/// [`super::pair_windows::pair_window`] numbers its values, or a term's,
/// as [`super::accumulate::term_window`] does), with where each of its
/// leaves comes from: the bytes (value 0), the chain so far (value 2) or
/// the weights (value 3).
#[derive(Clone, Debug)]
pub struct PartProgram {
    pub program: Program,
    pub leaf_values: Vec<usize>,
}

impl PartProgram {
    /// Appends the program's steps to `steps`, each leaf read from
    /// `bytes`, `sum` or `weights` as its value says; the source of its
    /// result. `None` if it reads another value, or one not given.
    pub fn append(
        &self,
        steps: &mut Vec<Step>,
        (bytes, sum, weights): (Source, Option<Source>, Option<Source>),
    ) -> Option<Source> {
        let offset = steps.len();
        for step in &self.program.steps {
            let operands = step
                .operands
                .iter()
                .map(|s| match *s {
                    Source::Step(j) => Some(Source::Step(offset + j)),
                    Source::Leaf(l) => match self.leaf_values.get(l)? {
                        0 => Some(bytes),
                        2 => sum,
                        3 => weights,
                        _ => None,
                    },
                })
                .collect::<Option<Vec<_>>>()?;
            steps.push(Step { op: step.op.clone(), operands });
        }
        Some(Source::Step(steps.len() - 1))
    }
}

/// The program of the whole chain over the window's leaves
/// (`window_leaves`, value numbers) and one constant leaf per pair after
/// them (pair `k`'s weights at `window_leaves.len() + k`): per pair, in
/// each chain of the layout, the pair's interleave then its program,
/// reading that chain so far; then the chains put back in order (for
/// [`Arrangement::Halves`], the two inputs' lanes added by instruction
/// `add`, a candidate). `first`
/// and `next` are the programs of a pair's window without and with the
/// chain so far.
pub fn chain_program(
    window_leaves: &[usize],
    pairs: &[[(usize, i64); 2]],
    layout: &Layout,
    first: &PartProgram,
    next: &PartProgram,
    add: Option<usize>,
) -> Option<Program> {
    let mut steps: Vec<Step> = Vec::new();
    let leaf = |v: usize| window_leaves.iter().position(|l| *l == v).map(Source::Leaf);
    // Pair by pair, each pair's step of every chain together: the pair's
    // inputs and weights are then read by adjacent steps and die there.
    // Chain after chain, every input would stay live across the first
    // chain (gaussian7x7 with 256-bit registers: LLVM spilled them all).
    let interleaves = layout.interleaves();
    let mut sums: Vec<Option<Source>> = vec![None; interleaves.len()];
    for (k, pair) in pairs.iter().enumerate() {
        for (interleave, sum) in interleaves.iter().zip(&mut sums) {
            steps.push(Step {
                op: StepOp::Swizzle(interleave.clone()),
                operands: vec![leaf(pair[0].0)?, leaf(pair[1].0)?],
            });
            let bytes = Source::Step(steps.len() - 1);
            let weights = Source::Leaf(window_leaves.len() + k);
            let pair_program = if sum.is_some() { next } else { first };
            *sum = Some(pair_program.append(&mut steps, (bytes, *sum, Some(weights)))?);
        }
    }
    let chains: Vec<Source> = sums.into_iter().collect::<Option<_>>()?;
    match (layout.arrangement, chains.as_slice()) {
        (Arrangement::LaneUnpack, _) => steps.push(Step { op: StepOp::Swizzle(layout.restore()), operands: chains }),
        (Arrangement::Halves, [chain]) => {
            for z in layout.halves_in_order() {
                steps.push(Step { op: StepOp::Swizzle(z), operands: vec![*chain] });
            }
            let n = steps.len();
            steps.push(Step {
                op: StepOp::Instr { candidate: add?, immediates: vec![] },
                operands: vec![Source::Step(n - 2), Source::Step(n - 1)],
            });
        }
        _ => return None,
    }
    Some(Program { steps })
}

/// The constants a chain's program reads after the window's leaves: each
/// pair's weights, as a register of bytes.
pub fn weight_constants(pairs: &[[(usize, i64); 2]], layout: &Layout) -> Vec<(Ty, BigUint, NewAttr)> {
    let (n, w) = (layout.pair_bytes(), layout.elem_bits / 2);
    let mask = (BigInt::from(1) << w) - 1;
    pairs
        .iter()
        .map(|p| {
            let xs = layout.weights(p);
            let bits = xs
                .iter()
                .rev()
                .fold(BigUint::default(), |acc, x| (acc << w) | (x & &mask).to_biguint().unwrap_or_default());
            let ty = Ty { dims: vec![n], elem_bits: w };
            (ty.clone(), bits, NewAttr::Dense(ty, xs))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::pair_windows::{paired_block, push, vector, Fresh};

    #[test]
    fn pairs_put_large_weights_with_small_ones() {
        let terms = [(1, 36), (2, 1), (3, 24), (4, 4), (5, -6)];
        let p = pairs(&terms, 8, Arrangement::LaneUnpack).unwrap();
        assert_eq!(p, vec![[(1, 36), (2, 1)], [(3, 24), (4, 4)], [(5, -6), (5, 0)]]);
        // A weight past a signed byte, a pair past 128 in sum.
        assert_eq!(pairs(&[(1, 200), (2, 1), (3, 1)], 8, Arrangement::LaneUnpack), None);
        assert_eq!(pairs(&[(1, 100), (2, 90), (3, 80), (4, 70)], 8, Arrangement::LaneUnpack), None);
        // 16-bit weights (32-bit results): no saturation to avoid.
        assert_eq!(
            pairs(&[(1, 400), (2, 300), (3, 1)], 16, Arrangement::LaneUnpack),
            Some(vec![[(1, 400), (3, 1)], [(2, 300), (2, 0)]])
        );
    }

    /// `Σ w_k · zext(x_k)` over `vector<32xi8>` inputs 0, 1, 2, …, as a
    /// left-leaning chain; a weight of 1 is a bare extension, a negative
    /// one a subtraction of the positive product. Its ops and root.
    fn chain(weights: &[i64]) -> (Vec<BlockOp>, usize) {
        let (bytes, words) = (vector(32, 8), vector(32, 16));
        let mut ops = Vec::new();
        let mut fresh = Fresh(100);
        let mut sum: Option<usize> = None;
        for (k, w) in weights.iter().enumerate() {
            let x = fresh.next();
            push(&mut ops, "arith.extui", vec![(k, bytes.clone())], (x, words.clone()), vec![]);
            let term = if w.abs() == 1 {
                x
            } else {
                let (c, p) = (fresh.next(), fresh.next());
                let value = vec![("value".into(), Attr::Elements(vec![BigInt::from(w.abs()); 32]))];
                push(&mut ops, "arith.constant", vec![], (c, words.clone()), value);
                push(&mut ops, "arith.muli", vec![(x, words.clone()), (c, words.clone())], (p, words.clone()), vec![]);
                p
            };
            sum = Some(match sum {
                None => term,
                Some(s) => {
                    let r = fresh.next();
                    let name = if *w < 0 { "arith.subi" } else { "arith.addi" };
                    push(&mut ops, name, vec![(s, words.clone()), (term, words.clone())], (r, words.clone()), vec![]);
                    r
                }
            });
        }
        let root = ops.len() - 1;
        (ops, root)
    }

    #[test]
    fn a_chain_is_read_as_its_weights() {
        let (ops, root) = chain(&[1, 6, -4, 2]);
        let flow = Dataflow::new(&ops);
        let form = linear_form(&flow, root).unwrap();
        assert_eq!(form.terms, vec![(0, 1), (1, 6), (2, -4), (3, 2)]);
        assert_eq!((form.lanes, form.elem_bits, form.input_bits), (32, 16, 8));
        // Every op of the chain, constants included.
        assert_eq!(form.ops.len(), ops.len());
        // Two inputs are too few to pair; a chain whose partial sum is read
        // elsewhere is not one tree.
        let (ops, root) = chain(&[1, 6]);
        assert_eq!(linear_form(&Dataflow::new(&ops), root), None);
        let (mut ops, root) = chain(&[1, 6, 4]);
        let partial = ops[root].operands[0];
        push(&mut ops, "arith.addi", vec![(partial, vector(32, 16)); 2], (999, vector(32, 16)), vec![]);
        assert_eq!(linear_form(&Dataflow::new(&ops), root), None);
    }

    #[test]
    fn the_paired_block_computes_the_chain() {
        // Unpacked lanes (registers of 256 bits) and halves (two inputs in a
        // register of 512 bits).
        for (arrangement, register) in [(Arrangement::LaneUnpack, 256), (Arrangement::Halves, 512)] {
            paired_block_computes_the_chain(arrangement, register);
        }
    }

    fn paired_block_computes_the_chain(arrangement: Arrangement, register: u32) {
        use dialectgen::eval::Concrete;
        let weights = [1, 6, -4, 2, 36, -1, 24];
        let (ops, root) = chain(&weights);
        let flow = Dataflow::new(&ops);
        let form = linear_form(&flow, root).unwrap();
        let layout = Layout::of(&form, register, arrangement).unwrap();
        let (paired_ops, paired_root) =
            paired_block(&pairs(&form.terms, 8, layout.arrangement).unwrap(), &layout, &vector(32, 8));
        let paired_flow = Dataflow::new(&paired_ops);
        let paired = paired_flow.close((0..paired_ops.len()).collect(), paired_root);
        let window = flow.close((0..ops.len()).collect(), root);
        // The paired block reads the chain's inputs, in some order.
        let mut inputs = paired.leaves.clone();
        inputs.sort_unstable();
        assert_eq!(inputs, (0..weights.len()).collect::<Vec<_>>());
        for seed in 0..4u64 {
            let bytes = |v: usize| -> BigUint {
                (0..32u64).fold(BigUint::default(), |acc, i| {
                    let b = (seed * 97 + v as u64 * 31 + i * 7 + i * i * (seed + 1)) % 256;
                    acc | (BigUint::from(b) << (8 * i as u32))
                })
            };
            let chain_in: Vec<BigUint> = window.leaves.iter().map(|v| bytes(*v)).collect();
            let paired_in: Vec<BigUint> = paired.leaves.iter().map(|v| bytes(*v)).collect();
            let a = super::super::screen::eval_window(&mut Concrete, &flow, &window, &chain_in).unwrap().0.bits;
            let b = super::super::screen::eval_window(&mut Concrete, &paired_flow, &paired, &paired_in).unwrap().0.bits;
            assert_eq!(a, b, "{arrangement:?}, seed {seed}");
        }
    }

    #[test]
    fn chains_sharing_extensions_are_weighed_together() {
        // Chain one: 1·x0 + 6·x1 - 4·x2 + 2·x3, its extensions values 101, 102, …
        let (mut ops, root) = chain(&[1, 6, -4, 2]);
        let words = vector(32, 16);
        let ext = |k: usize| ops.iter().find(|o| o.name == "arith.extui" && o.operands[0] == k).unwrap().results[0];
        let (x0, x1, x3) = (ext(0), ext(1), ext(3));
        // Chain two reads three of them: x0 + x1 + x3.
        push(&mut ops, "arith.addi", vec![(x0, words.clone()), (x1, words.clone())], (900, words.clone()), vec![]);
        push(&mut ops, "arith.addi", vec![(900, words.clone()), (x3, words.clone())], (901, words.clone()), vec![]);
        let other = ops.len() - 1;
        let flow = Dataflow::new(&ops);
        let form = linear_form(&flow, root).unwrap();
        let siblings = sibling_chains(&flow, &form, root).unwrap();
        assert_eq!(siblings.len(), 1);
        assert_eq!(siblings[0].0, other);
        // Alone, the first chain saves only the extension no other chain reads
        // (its ops: 4 extensions, 3 products, 3 adds); together, every one.
        let plain = LlvmChain { extends_from_memory: false, factors_weights: false };
        let alone = chains_cost(&flow, &[(root, &form)], 512, plain);
        let together = chains_cost(&flow, &[(root, &form), (other, &siblings[0].1)], 512, plain);
        assert_eq!((alone, together), (7, 12));
        // An extension read by an op in no chain: no siblings to weigh.
        push(&mut ops, "arith.maxui", vec![(x0, words.clone()), (x1, words.clone())], (902, words.clone()), vec![]);
        let flow = Dataflow::new(&ops);
        assert_eq!(sibling_chains(&flow, &form, root), None);
    }

    #[test]
    fn a_product_shared_by_two_chains_joins_them() {
        // Chain one: 1·x0 + 6·x1 - 4·x2 + 2·x3; chain two reads its 6·x1 (value
        // of the product) and adds x0 and x3.
        let (mut ops, root) = chain(&[1, 6, -4, 2]);
        let words = vector(32, 16);
        let product = ops.iter().find(|o| o.name == "arith.muli").unwrap().results[0];
        let ext = |k: usize| ops.iter().find(|o| o.name == "arith.extui" && o.operands[0] == k).unwrap().results[0];
        let (x0, x3) = (ext(0), ext(3));
        push(&mut ops, "arith.addi", vec![(product, words.clone()), (x0, words.clone())], (900, words.clone()), vec![]);
        push(&mut ops, "arith.addi", vec![(900, words.clone()), (x3, words.clone())], (901, words.clone()), vec![]);
        let other = ops.len() - 1;
        let flow = Dataflow::new(&ops);
        let form = linear_form(&flow, root).unwrap();
        assert_eq!(form.terms, vec![(0, 1), (1, 6), (2, -4), (3, 2)]);
        let siblings = sibling_chains(&flow, &form, root).unwrap();
        assert_eq!(siblings.len(), 1);
        assert_eq!((siblings[0].0, siblings[0].1.terms.clone()), (other, vec![(0, 1), (1, 6), (3, 1)]));
        // A partial sum read elsewhere is not shared: no chain.
        let partial = ops[root].operands[0];
        push(&mut ops, "arith.addi", vec![(partial, words.clone()); 2], (902, words.clone()), vec![]);
        assert_eq!(linear_form(&Dataflow::new(&ops), root), None);
    }

    /// Where LLVM factors, it multiplies once per weight: a chain of three
    /// products by 6 and one by 2 costs two products, where the plain count
    /// has four. Its inputs are the block's arguments, not loads: no load
    /// to pay.
    #[test]
    fn factoring_pricing_multiplies_once_per_weight() {
        let (ops, root) = chain(&[6, 6, 2, 6]);
        let flow = Dataflow::new(&ops);
        let form = linear_form(&flow, root).unwrap();
        let factoring = LlvmChain { extends_from_memory: true, factors_weights: true };
        let plain = LlvmChain { extends_from_memory: false, factors_weights: false };
        // 4 extensions, 3 adds and 4 products (2 once factored), in one register each.
        assert_eq!(chains_cost(&flow, &[(root, &form)], 512, plain), 11);
        assert_eq!(chains_cost(&flow, &[(root, &form)], 512, factoring), 9);
        assert_eq!(factoring.program_loads(&flow, &[(root, &form)], 512), 0);
    }

    #[test]
    fn halves_interleave_the_inputs_and_add_the_halves() {
        let layout = Layout { bits: 512, elem_bits: 16, arrangement: Arrangement::Halves };
        assert_eq!((layout.pair_bytes(), layout.chain_bits()), (128, 2048));
        let z = layout.interleaves();
        assert_eq!(z.len(), 1);
        assert_eq!(&z[0].mask[..4], &[0, 64, 1, 65]);
        assert_eq!(&z[0].mask[126..], &[63, 127]);
        let [low, high] = layout.halves_in_order();
        assert_eq!((low.mask[0], low.mask[63], high.mask[0], high.mask[63]), (0, 63, 64, 127));
        // Pairs summing past a signed byte: no saturation to avoid, products kept apart.
        assert!(pairs(&[(1, 100), (2, 90), (3, 80), (4, 70)], 8, Arrangement::Halves).is_some());
        // Sums of 32 bits are not arranged in halves.
        let form = LinearForm { ops: BTreeSet::new(), terms: vec![], lanes: 64, elem_bits: 32, input_bits: 8 };
        assert_eq!(Layout::of(&form, 1024, Arrangement::Halves), None);
    }

    #[test]
    fn lanes_are_unpacked_within_128_bit_blocks_and_put_back() {
        let z = Layout { bits: 256, elem_bits: 16, arrangement: Arrangement::LaneUnpack }.interleaves();
        // Low half of each 128-bit lane: bytes 0..8 and 16..24 of each input.
        assert_eq!(&z[0].mask[..4], &[0, 32, 1, 33]);
        assert_eq!(&z[0].mask[16..18], &[16, 48]);
        assert_eq!(&z[1].mask[..2], &[8, 40]);
        let r = Layout { bits: 256, elem_bits: 16, arrangement: Arrangement::LaneUnpack }.restore();
        // 64-bit blocks: low chain's lane 0, high chain's lane 0, low's lane 1, high's lane 1.
        assert_eq!(r.mask, vec![0, 1, 4, 5, 2, 3, 6, 7]);
        // 32-bit results of one 128-bit lane: the low chain, then the high one.
        let r = Layout { bits: 128, elem_bits: 32, arrangement: Arrangement::LaneUnpack }.restore();
        assert_eq!((r.operand_bits, r.mask), (256, vec![0, 1, 2, 3, 4, 5, 6, 7]));
    }
}
