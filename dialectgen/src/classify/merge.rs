//! Merging templates (paper §3.1, Algorithm 1). Two instructions can compute
//! the same thing up to numbers yet be written with different templates: a
//! 128-bit form without the lane loop its wider siblings have, a mask result
//! whose unused upper bits are cleared only when there are any. Such an
//! instruction still belongs to a class when the class's template, given
//! numbers fitted from the class's members, computes it.
//!
//! The numbers: every body hole of the class template is fitted, over the
//! class's members, as a function of the signature (widths, element widths,
//! immediate bits): a constant, a signature number plus an offset, a linear
//! function of one, or a ratio of two (`lanes - 1 = width / elem - 1`). The
//! fitted functions give the candidate instruction's numbers. A candidate is
//! screened by running both on random inputs, then proved equal with Z3.

use super::operators::{choices, Choice};
use super::proof::{prove_equal, prove_equal_then_by_slices, Budget, Verdict};
use super::template::{hole_index, instantiate, signature_len};
use crate::eval::machine::Machine;
use crate::eval::Concrete;
use crate::sema::ir::{ArgKind, Expr, Semantics};
use crate::validate::cases::{random_bits, Rng};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{Signed, Zero};
use std::collections::HashMap;

/// How a body hole's value follows from the signature numbers `s`.
#[derive(Clone, Debug, PartialEq)]
enum Fit {
    Const(BigInt),
    /// `s[i] * num / den + offset`.
    Linear {
        i: usize,
        num: BigInt,
        den: BigInt,
        offset: BigInt,
    },
    /// `s[i] / s[j] + offset`.
    Ratio {
        i: usize,
        j: usize,
        offset: BigInt,
    },
    /// `c / s[j] + offset` (elements per 64-bit half: `64 / elem - 1`).
    Inverse {
        c: BigInt,
        j: usize,
        offset: BigInt,
    },
    /// `log2(s[i]) + offset` for a power of two (the top bit of an element
    /// index: `log2(width / 8) - 1`).
    Log2 {
        i: usize,
        offset: BigInt,
    },
}

impl Fit {
    fn apply(&self, s: &[BigInt]) -> Option<BigInt> {
        match self {
            Fit::Const(c) => Some(c.clone()),
            Fit::Linear { i, num, den, offset } => {
                let (q, r) = (&s[*i] * num).div_rem(den);
                r.is_zero().then(|| q + offset)
            }
            Fit::Ratio { i, j, offset } => {
                if s[*j].is_zero() {
                    return None;
                }
                let (q, r) = s[*i].div_rem(&s[*j]);
                r.is_zero().then(|| q + offset)
            }
            Fit::Inverse { c, j, offset } => {
                if s[*j].is_zero() {
                    return None;
                }
                let (q, r) = c.div_rem(&s[*j]);
                r.is_zero().then(|| q + offset)
            }
            Fit::Log2 { i, offset } => log2(&s[*i]).map(|l| l + offset),
        }
    }
}

/// `log2(x)` when `x` is a positive power of two.
fn log2(x: &BigInt) -> Option<BigInt> {
    (x.is_positive() && (x & (x - 1u8)).is_zero()).then(|| BigInt::from(x.bits() - 1))
}

/// The fits of column `values[h]` over `members` (each a full value vector
/// whose signature numbers start at `sig_from`), most specific first.
fn fits(members: &[&[BigInt]], h: usize, sig_from: usize, numbers: Numbers) -> Vec<Fit> {
    let col: Vec<&BigInt> = members.iter().map(|m| &m[h]).collect();
    let sig = |m: &[BigInt], i: usize| m[sig_from + i].clone();
    let sigs = members[0].len() - sig_from;
    let constant = col.iter().all(|v| *v == col[0]);
    let mut out = Vec::new();
    let holds = |f: &Fit| members.iter().all(|m| f.apply(&m[sig_from..]).as_ref() == Some(&m[h]));
    let small = |o: &BigInt| o.abs() <= BigInt::from(1);
    for i in 0..sigs {
        // Through two members that differ in s[i]: slope and offset.
        let first = members[0];
        let (x0, y0) = (sig(first, i), first[h].clone());
        if let Some(other) = members.iter().find(|m| sig(m, i) != x0) {
            let (x1, y1) = (sig(other, i), other[h].clone());
            let (num, den) = (&y1 - &y0, &x1 - &x0);
            let g = num.gcd(&den);
            let (num, den) = if g.is_zero() { (num, den) } else { (&num / &g, &den / &g) };
            let (num, den) = if den.is_negative() { (-num, -den) } else { (num, den) };
            let (q, r) = (&x0 * &num).div_rem(&den);
            if r.is_zero() {
                let f = Fit::Linear { i, num, den, offset: &y0 - q };
                if holds(&f) {
                    out.push(f);
                }
            }
        } else if constant && !x0.is_zero() {
            // s[i] the same in every member: only natural forms (s, s - 1,
            // and the last index of 128-bit lanes or 64-bit halves, s / 128 - 1).
            for (den, off) in [(1, 0), (1, -1), (128, -1), (64, -1)] {
                let f = Fit::Linear { i, num: BigInt::from(1), den: BigInt::from(den), offset: BigInt::from(off) };
                if f.apply(&first[sig_from..]).as_ref() == Some(&y0) && !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        if !constant {
            if let Some(l) = log2(&x0) {
                let f = Fit::Log2 { i, offset: &y0 - l };
                if holds(&f) {
                    out.push(f);
                }
            }
            for off in [-1i64, 0, 1] {
                let c = (&y0 - off) * sig(first, i);
                let f = Fit::Inverse { c, j: i, offset: BigInt::from(off) };
                if !sig(first, i).is_zero() && holds(&f) {
                    out.push(f);
                }
            }
        }
        for j in 0..sigs {
            let x = sig(first, j);
            if i == j || x.is_zero() {
                continue;
            }
            let offset = &y0 - sig(first, i) / x;
            let f = Fit::Ratio { i, j, offset };
            if matches!(&f, Fit::Ratio { offset, .. } if small(offset)) && holds(&f) {
                out.push(f);
            }
        }
    }
    if constant {
        out.push(Fit::Const(col[0].clone()));
    } else if out.is_empty() && numbers == Numbers::OrMembersValues {
        // A number no width explains (signed or unsigned, which end first):
        // one of the values the members take, each tried and proved.
        let mut seen: Vec<&BigInt> = Vec::new();
        for v in &col {
            if !seen.contains(v) {
                seen.push(v);
            }
        }
        if seen.len() <= MAX_FLAG_VALUES {
            out.extend(seen.into_iter().map(|v| Fit::Const(v.clone())));
        }
    }
    out
}

/// A hole no function of the signature fits is tried with each value the
/// host's members give it, when they give it at most this many.
const MAX_FLAG_VALUES: usize = 4;

/// The numbers merging may give a template's hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Functions of the signature: widths, element widths, immediate bits.
    OfSignature,
    /// Those, and where none fits, each value the host's members give the
    /// hole (whether lanes are read signed, which half of a product is kept).
    /// Index arithmetic then also names every enclosing loop counter, with
    /// coefficient 0 where the index does not move with it, so that such a
    /// coefficient is a number too.
    OrMembersValues,
}

impl Numbers {
    /// How canonical forms write index arithmetic for these numbers.
    pub fn form(self) -> super::canon::Form {
        match self {
            Numbers::OfSignature => super::canon::Form::Narrow,
            Numbers::OrMembersValues => super::canon::Form::Broad,
        }
    }
}

/// Candidate numbers (body holes with the fits `per_hole`, then `sig`)
/// that would make a template the instruction with signature numbers
/// `sig`: one with each hole's most specific fit, one preferring `c / s`
/// fits, one preferring constants, one preferring signature numbers as
/// they are.
fn guesses(per_hole: &[Vec<Fit>], sig: &[BigInt]) -> Vec<Vec<BigInt>> {
    let sig_from = per_hole.len();
    let len = sig_from + sig.len();
    let mut out: Vec<Vec<BigInt>> = Vec::new();
    // Most specific fits first; then inverse fits first (two members fit
    // a line as well); then constants first.
    let inverse = |f: &&Fit| matches!(f, Fit::Inverse { .. });
    let constant = |f: &&Fit| matches!(f, Fit::Const(_));
    // A signature number itself (an element width) before ratios that
    // happen to give the same value for the host's members.
    let itself = |f: &&Fit| matches!(f, Fit::Linear { num, den, .. } if num == den);
    let preferences: [Option<fn(&&Fit) -> bool>; 4] = [None, Some(inverse), Some(constant), Some(itself)];
    for prefer in preferences {
        let mut values = Vec::with_capacity(len);
        for fs in per_hole {
            let preferred = prefer.and_then(|p| fs.iter().filter(p).find_map(|f| f.apply(sig)));
            let v = preferred.or_else(|| fs.iter().find_map(|f| f.apply(sig)));
            match v {
                Some(v) => values.push(v),
                None => break,
            }
        }
        if values.len() == sig_from {
            values.extend(sig.iter().cloned());
            if !out.contains(&values) {
                out.push(values);
            }
        }
    }
    out.extend(combinations(per_hole, sig).into_iter().filter(|v| !out.contains(v)).collect::<Vec<_>>());
    out
}

/// At most this many further candidates per instruction and argument order.
const MAX_COMBINATIONS: usize = 64;

/// Further candidates: holes with the same fits take the same value (they
/// are one number of the host), and every combination of the values the
/// fits give is tried, up to [`MAX_COMBINATIONS`]. A host with one member
/// fits many functions, and each hole may need a different one.
fn combinations(per_hole: &[Vec<Fit>], sig: &[BigInt]) -> Vec<Vec<BigInt>> {
    let mut kinds: Vec<(&Vec<Fit>, Vec<BigInt>)> = Vec::new();
    let mut kind_of = Vec::with_capacity(per_hole.len());
    for fs in per_hole {
        let k = match kinds.iter().position(|(f, _)| *f == fs) {
            Some(k) => k,
            None => {
                let mut values: Vec<BigInt> = Vec::new();
                for v in fs.iter().filter_map(|f| f.apply(sig)) {
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                kinds.push((fs, values));
                kinds.len() - 1
            }
        };
        kind_of.push(k);
    }
    let total = kinds.iter().try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()));
    if !matches!(total, Some(n) if n > 1 && n <= MAX_COMBINATIONS) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for mut n in 0..total.unwrap_or(0) {
        let choice: Vec<&BigInt> = kinds
            .iter()
            .map(|(_, values)| {
                let v = &values[n % values.len()];
                n /= values.len();
                v
            })
            .collect();
        let mut values: Vec<BigInt> = kind_of.iter().map(|&k| choice[k].clone()).collect();
        values.extend(sig.iter().cloned());
        out.push(values);
    }
    out
}

/// An instruction's results on a few random inputs and on edge inputs,
/// computed once and only as far as candidates need them: most candidates
/// differ on the first input, and every host offered the instruction reuses
/// them. The edge inputs (each lane the smallest or largest signed value,
/// all ones, zero, one or the smallest plus one, combined across arguments
/// so every pair meets in some lane) reject, before a proof is tried, the
/// candidates that differ only where lanes saturate, wrap or round.
pub struct Samples {
    inputs: Vec<Vec<BigUint>>,
    /// `inputs[..random]` are random; the rest are edge inputs.
    random: usize,
    outputs: Vec<std::sync::OnceLock<Option<BigUint>>>,
}

/// The lane values of the edge inputs, in the order [`edge_value`] gives them.
const EDGE_VALUES: usize = 6;

/// Edge lane value `n` (of [`EDGE_VALUES`]) at `width` bits: the smallest
/// and largest signed values, all ones, zero, one, the smallest plus one
/// (each cut to `width` bits: a one-bit lane takes only 0 and 1).
fn edge_value(width: u32, n: usize) -> BigUint {
    let one = BigUint::from(1u8);
    let all_ones = (&one << width) - &one;
    let min = &one << (width - 1);
    let value = match n {
        0 => min,
        1 => &min - &one,
        2 => all_ones.clone(),
        3 => BigUint::zero(),
        4 => one,
        _ => min + one,
    };
    value & all_ones
}

impl Samples {
    /// The inputs, in `instruction`'s argument order.
    pub fn new(instruction: &Semantics) -> Samples {
        let mut rng = Rng::new(0x5eed);
        let mut inputs: Vec<Vec<BigUint>> = (0..4)
            .map(|_| {
                instruction
                    .args
                    .iter()
                    .map(|x| random_bits(&mut rng, x.imm_bits.unwrap_or(x.width).min(x.width)))
                    .collect()
            })
            .collect();
        let random = inputs.len();
        let edges: Vec<Vec<BigUint>> = (0..EDGE_VALUES).map(|k| edge_input(instruction, &inputs[0], k)).collect();
        inputs.extend(edges);
        let outputs = inputs.iter().map(|_| std::sync::OnceLock::new()).collect();
        Samples { inputs, random, outputs }
    }

    /// Whether `candidate` computes what `instruction` (the instruction these
    /// samples were made for) computes on every sample; argument `k` of
    /// `candidate` is argument `order[k]` of `instruction`. On an edge input
    /// only a difference between two results counts: where either side does
    /// not evaluate, the proof decides.
    fn agree(&self, instruction: &Semantics, candidate: &Semantics, order: &[usize]) -> bool {
        self.inputs.iter().zip(&self.outputs).enumerate().all(|(n, (args, out))| {
            let x = out.get_or_init(|| Machine::new(&mut Concrete, instruction).run(args).ok());
            if n >= self.random && x.is_none() {
                return true;
            }
            let b_args: Vec<BigUint> = order.iter().map(|&i| args[i].clone()).collect();
            let y = Machine::new(&mut Concrete, candidate).run(&b_args);
            match (x, y) {
                (Some(x), Ok(y)) => *x == y,
                _ => n >= self.random,
            }
        })
    }
}

/// Edge input `k`: lane `i` of argument `j` holds edge value
/// `(i + j·k) mod EDGE_VALUES` (see [`edge_value`]) at the argument's
/// element width; immediates keep their value in `first` (a random input).
fn edge_input(instruction: &Semantics, first: &[BigUint], k: usize) -> Vec<BigUint> {
    instruction
        .args
        .iter()
        .enumerate()
        .map(|(j, x)| {
            if x.imm_bits.is_some() || x.kind == ArgKind::Immediate || x.width == 0 {
                return first[j].clone();
            }
            let w = if x.elem.width == 0 || x.width % x.elem.width != 0 { x.width } else { x.elem.width };
            (0..x.width / w)
                .rev()
                .fold(BigUint::zero(), |acc, i| (acc << w) | edge_value(w, (i as usize + j * k) % EDGE_VALUES))
        })
        .collect()
}

/// A class offered as host to other instructions: its template and, per
/// body hole, the functions of the signature that fit its members
/// (computed at the first instruction offered, once).
pub struct Host<'a> {
    template: &'a Semantics,
    member_values: Vec<&'a [BigInt]>,
    numbers: Numbers,
    /// The template's numbers choosing an operation (see [`choices`]);
    /// only broad forms have them.
    choices: HashMap<Choice, Vec<Expr>>,
    per_hole: std::sync::OnceLock<Vec<Vec<Fit>>>,
    /// Whether a proof out of budget is tried again one result element at
    /// a time ([`prove_equal_then_by_slices`]).
    lane_wise: bool,
}

impl<'a> Host<'a> {
    /// `member_values`: each member's numbers for `template`'s holes.
    pub fn new(template: &'a Semantics, member_values: Vec<&'a [BigInt]>, numbers: Numbers) -> Host<'a> {
        let choices = if numbers == Numbers::OrMembersValues { choices(template) } else { HashMap::new() };
        Host { template, member_values, numbers, choices, per_hole: std::sync::OnceLock::new(), lane_wise: false }
    }

    /// The same host, trying a proof that runs out of budget again one
    /// result element at a time: more proofs reach a verdict, at the cost
    /// of up to one query per element where none does.
    pub fn lane_wise(self) -> Host<'a> {
        Host { lane_wise: true, ..self }
    }

    fn per_hole(&self) -> &[Vec<Fit>] {
        self.per_hole.get_or_init(|| {
            let sig_from = self.member_values[0].len() - signature_len(self.template.args.len());
            let codes: Vec<usize> = self.choices.values().flatten().filter_map(hole_number).collect();
            (0..sig_from)
                .map(|h| {
                    if !codes.contains(&h) {
                        return fits(&self.member_values, h, sig_from, self.numbers);
                    }
                    // A number choosing an operation is no function of
                    // widths: the numbers the members use.
                    let mut fs: Vec<Fit> = Vec::new();
                    for m in &self.member_values {
                        let f = Fit::Const(m[h].clone());
                        if !fs.contains(&f) {
                            fs.push(f);
                        }
                    }
                    fs
                })
                .collect()
        })
    }

    /// The fits of the template's holes for an instruction whose numbers
    /// choosing an operation are `own`: the host's, except that the
    /// template's `j`th number choosing an operation of a kind (see
    /// [`choices`]) is the instruction's `j`th of that kind: the operation
    /// is a number of the class, and the instruction names its own.
    fn per_hole_for(&self, own: &HashMap<Choice, Vec<Expr>>) -> Vec<Vec<Fit>> {
        let mut per_hole = self.per_hole().to_vec();
        for (kind, codes) in &self.choices {
            let Some(own) = own.get(kind) else { continue };
            for (code, value) in codes.iter().zip(own) {
                let (Some(h), Some(v)) = (hole_number(code), int_value(value)) else { continue };
                if let Some(fs) = per_hole.get_mut(h) {
                    *fs = vec![Fit::Const(v)];
                }
            }
        }
        per_hole
    }

    /// Whether an instruction has the template's argument and result kinds.
    pub fn same_shape(&self, instruction: &Semantics) -> bool {
        let t = self.template;
        t.args.len() == instruction.args.len()
            && t.args.iter().zip(&instruction.args).all(|(x, y)| x.kind == y.kind)
            && t.result.kind == instruction.result.kind
    }

    /// Numbers for the template that make it compute `instruction` (a
    /// canonical form with signature numbers `sig`), proved by Z3, and the
    /// argument order they need: template argument `k` is the instruction's
    /// argument `order[k]` (arguments of one kind and width may trade
    /// places; the given order is tried first).
    /// `samples` are the instruction's (see [`Samples::new`]).
    pub fn fit(&self, instruction: &Semantics, samples: &Samples, sig: &[BigInt], timeout_ms: u32) -> Option<Fitted> {
        if !self.same_shape(instruction) {
            return None;
        }
        let own = if self.choices.is_empty() { HashMap::new() } else { choices(instruction) };
        let per_hole = self.per_hole_for(&own);
        for order in argument_orders(instruction) {
            let permuted_sig: Vec<BigInt> = order
                .iter()
                .flat_map(|&i| sig[3 * i..3 * i + 3].iter().cloned())
                .chain(sig[3 * order.len()..].iter().cloned())
                .collect();
            if let Some(values) = self.fit_in_order(instruction, &per_hole, samples, &permuted_sig, &order, timeout_ms)
            {
                return Some(Fitted { values, order });
            }
        }
        None
    }

    /// [`Host::fit`] in one argument order, with the instruction's fits
    /// `per_hole` (see [`Host::per_hole_for`]).
    fn fit_in_order(
        &self,
        instruction: &Semantics,
        per_hole: &[Vec<Fit>],
        samples: &Samples,
        sig: &[BigInt],
        order: &[usize],
        timeout_ms: u32,
    ) -> Option<Vec<BigInt>> {
        let candidates = guesses(per_hole, sig);
        if candidates.is_empty() {
            log::debug!("{}: no numbers fit (arguments {order:?})", instruction.name);
        }
        for values in candidates {
            let candidate = instantiate(self.template, &values, &instruction.name);
            let arg_of = |k: usize| &instruction.args[order[k]];
            if candidate
                .args
                .iter()
                .enumerate()
                .any(|(k, x)| x.width != arg_of(k).width || x.imm_bits != arg_of(k).imm_bits)
                || candidate.result.width != instruction.result.width
            {
                continue;
            }
            if !samples.agree(instruction, &candidate, order) {
                log::debug!("{}: differs on samples with {values:?} (arguments {order:?})", instruction.name);
                continue;
            }
            // Lane-wise: one result element at a time where the whole
            // proof runs out of budget.
            let verdict = if self.lane_wise {
                let elem = instruction.result.elem.width;
                prove_equal_then_by_slices(instruction, &candidate, order, Budget::uniform(timeout_ms), elem).0
            } else {
                prove_equal(instruction, &candidate, order, timeout_ms)
            };
            match verdict {
                Verdict::Equal => return Some(values),
                other => log::debug!("{}: not proved ({other:?}) with {values:?}", instruction.name),
            }
        }
        None
    }
}

fn hole_number(e: &Expr) -> Option<usize> {
    match e {
        Expr::Var(v) => hole_index(v),
        _ => None,
    }
}

fn int_value(e: &Expr) -> Option<BigInt> {
    match e {
        Expr::Int(v) => Some(v.clone()),
        _ => None,
    }
}

/// A fit: the template's numbers and its argument order (see [`Host::fit`]).
pub struct Fitted {
    pub values: Vec<BigInt>,
    pub order: Vec<usize>,
}

/// The argument orders to try: the instruction's own, then the orders that
/// exchange arguments of the same kind and width (at most 4 arguments).
fn argument_orders(instruction: &Semantics) -> Vec<Vec<usize>> {
    let n = instruction.args.len();
    let identity: Vec<usize> = (0..n).collect();
    if n > 4 {
        return vec![identity];
    }
    let mut out = vec![identity.clone()];
    let interchangeable = |a: usize, b: usize| {
        let (x, y) = (&instruction.args[a], &instruction.args[b]);
        x.kind == y.kind && x.width == y.width && x.imm_bits == y.imm_bits
    };
    let mut order = identity;
    permutations(&mut order, 0, &mut |o: &[usize]| {
        if o.iter().enumerate().all(|(k, &i)| interchangeable(k, i)) && !out.iter().any(|x| x == o) {
            out.push(o.to_vec());
        }
    });
    out
}

fn permutations(xs: &mut Vec<usize>, from: usize, visit: &mut dyn FnMut(&[usize])) {
    if from == xs.len() {
        visit(xs);
        return;
    }
    for i in from..xs.len() {
        xs.swap(from, i);
        permutations(xs, from + 1, visit);
        xs.swap(from, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_values_stay_within_their_lane() {
        let all: Vec<u32> = (0..EDGE_VALUES).map(|n| u32::try_from(edge_value(8, n)).unwrap()).collect();
        assert_eq!(all, [0x80, 0x7f, 0xff, 0, 1, 0x81]);
        for n in 0..EDGE_VALUES {
            assert!(edge_value(1, n) <= BigUint::from(1u8), "value {n} of a one-bit lane");
        }
    }

    #[test]
    fn edge_inputs_meet_every_pair_of_values_in_some_lane() {
        let arg = |name: &str| crate::sema::ir::Arg {
            name: name.into(),
            kind: ArgKind::Vector,
            width: 64,
            elem: crate::sema::ir::ElemType { width: 8, signed: true },
            imm_bits: None,
            imm_range: None,
        };
        let sema = Semantics {
            name: "pair".into(),
            args: vec![arg("a"), arg("b")],
            result: arg("r"),
            functions: vec![],
            body: vec![],
        };
        let first = vec![BigUint::zero(), BigUint::zero()];
        let lanes = |x: &BigUint| {
            (0..8).map(|i| u32::try_from((x >> (8 * i)) & BigUint::from(0xffu32)).unwrap()).collect::<Vec<_>>()
        };
        let mut pairs = std::collections::BTreeSet::new();
        for k in 0..EDGE_VALUES {
            let input = edge_input(&sema, &first, k);
            assert!(input.iter().all(|x| x.bits() <= 64));
            pairs.extend(lanes(&input[0]).into_iter().zip(lanes(&input[1])));
        }
        assert_eq!(pairs.len(), EDGE_VALUES * EDGE_VALUES);
    }

    fn v(xs: &[i64]) -> Vec<BigInt> {
        xs.iter().map(|&x| BigInt::from(x)).collect()
    }

    /// The fits of every body hole, for members with `sigs` signature numbers.
    fn per_hole(members: &[&[BigInt]], sigs: usize) -> Vec<Vec<Fit>> {
        let sig_from = members[0].len() - sigs;
        (0..sig_from).map(|h| fits(members, h, sig_from, Numbers::OfSignature)).collect()
    }

    #[test]
    fn lane_counts_follow_widths() {
        // Body holes: lanes - 1, a constant 0; signature: width, element width.
        let a = v(&[15, 0, 512, 32]);
        let b = v(&[7, 0, 256, 32]);
        let c = v(&[31, 0, 512, 16]);
        let members: Vec<&[BigInt]> = vec![&a, &b, &c];
        let guesses = guesses(&per_hole(&members, 2), &v(&[128, 8]));
        assert_eq!(guesses[0], v(&[15, 0, 128, 8]));
    }

    #[test]
    fn a_single_member_offers_the_natural_forms_and_the_constants() {
        // One 256-bit member with two lanes of 128 bits: lanes - 1 = 1.
        let a = v(&[1, 256]);
        let members: Vec<&[BigInt]> = vec![&a];
        let all = guesses(&per_hole(&members, 1), &v(&[512]));
        assert!(all.contains(&v(&[1, 512])), "{all:?}");
    }

    #[test]
    fn counts_per_half_lane_follow_the_element_width() {
        // 64 / elem - 1: 7 for bytes, 3 for words; width 128 in both.
        let a = v(&[7, 128, 8]);
        let b = v(&[3, 128, 16]);
        let members: Vec<&[BigInt]> = vec![&a, &b];
        let guesses = guesses(&per_hole(&members, 2), &v(&[128, 32]));
        assert!(guesses.contains(&v(&[1, 128, 32])), "{guesses:?}");
    }

    #[test]
    fn fits_reject_what_does_not_hold() {
        let a = v(&[3, 128]);
        let b = v(&[5, 256]);
        let members: Vec<&[BigInt]> = vec![&a, &b];
        // 3 = 128/64 + 1, 5 ≠ 256/64 + 1: the ratio-free linear fit 3 + (w-128)/64 holds.
        let fs = fits(&members, 0, 1, Numbers::OfSignature);
        assert!(fs.iter().all(|f| members.iter().all(|m| f.apply(&m[1..]).as_ref() == Some(&m[0]))));
        assert!(!fs.iter().any(|f| matches!(f, Fit::Const(_))));
    }

    #[test]
    fn only_arguments_of_one_kind_and_width_trade_places() {
        use crate::sema::ir::{Arg, ArgKind, ElemType};
        let arg = |name: &str, kind: ArgKind, width: u32| Arg {
            name: name.into(),
            kind,
            width,
            elem: ElemType { width: 8, signed: false },
            imm_bits: None,
            imm_range: None,
        };
        let s = Semantics {
            name: "t".into(),
            args: vec![arg("a", ArgKind::Vector, 128), arg("b", ArgKind::Vector, 128), arg("i", ArgKind::Immediate, 8)],
            result: arg("dst", ArgKind::Vector, 128),
            functions: vec![],
            body: vec![],
        };
        assert_eq!(argument_orders(&s), vec![vec![0, 1, 2], vec![1, 0, 2]]);
    }

    #[test]
    fn index_bits_follow_the_logarithm_of_the_width() {
        // The top bit of a byte index: 4 for 256 bits, 5 for 512.
        let a = v(&[4, 256]);
        let b = v(&[5, 512]);
        let members: Vec<&[BigInt]> = vec![&a, &b];
        let guesses = guesses(&per_hole(&members, 1), &v(&[128]));
        assert!(guesses.contains(&v(&[3, 128])), "{guesses:?}");
    }

    #[test]
    fn a_single_member_host_tries_each_fit_per_number() {
        // One 256-bit member with 16-bit elements: holes `15` (elements - 1)
        // and `16` (element width). The 128-bit, 32-bit instance needs the
        // ratio for the first and the element width itself for the second.
        let a = v(&[15, 16, 256, 16]);
        let members: Vec<&[BigInt]> = vec![&a];
        let guesses = guesses(&per_hole(&members, 2), &v(&[128, 32]));
        assert!(guesses.contains(&v(&[3, 32, 128, 32])), "{guesses:?}");
    }
}
