//! An evaluation domain whose values are terms: running an instruction's
//! semantics over it unrolls the pseudocode into one hash-consed DAG of
//! bitvector operations over the arguments, simplified as it is built
//! (constants folded, slices of concatenations and extensions taken
//! apart, truncations pushed through the operations they commute with), so
//! that each result element ends as its own small term.

use crate::eval::domain::{BvBinOp, BvCmp, Domain};
use crate::eval::Concrete;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;

/// A term's index in its [`Terms`].
pub type TermId = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// Argument `arg` of the semantics, whole.
    Input {
        arg: usize,
    },
    Lit(BigUint),
    /// Bits `hi..=lo` of `x`.
    Extract {
        x: TermId,
        hi: u32,
        lo: u32,
    },
    /// `x` extended to the term's width.
    Ext {
        x: TermId,
        signed: bool,
    },
    /// `hi` above `lo`.
    Concat {
        hi: TermId,
        lo: TermId,
    },
    Bin {
        op: BvBinOp,
        a: TermId,
        b: TermId,
    },
    Not(TermId),
    /// 1 bit wide.
    Cmp {
        op: BvCmp,
        a: TermId,
        b: TermId,
    },
    Ite {
        c: TermId,
        t: TermId,
        e: TermId,
    },
}

/// The terms built so far, each with its width.
#[derive(Default)]
pub struct Terms {
    nodes: Vec<(Node, u32)>,
    index: HashMap<(Node, u32), TermId>,
    /// Slices taken (term, hi, lo): a slice pushed into a shared term is
    /// pushed once.
    slices: HashMap<(TermId, u32, u32), TermId>,
    /// Set once more than [`MAX_TERMS`] terms were asked for: the rest of
    /// the run is cut short and its result is not used.
    pub overflowed: bool,
}

/// The most terms one instruction may unroll to.
pub const MAX_TERMS: usize = 200_000;

fn all_ones(width: u32) -> BigUint {
    (BigUint::one() << width) - BigUint::one()
}

impl Terms {
    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t as usize].0
    }

    pub fn width(&self, t: TermId) -> u32 {
        self.nodes[t as usize].1
    }

    pub fn literal_of(&self, t: TermId) -> Option<&BigUint> {
        match self.node(t) {
            Node::Lit(v) => Some(v),
            _ => None,
        }
    }

    /// The argument `arg`, `width` bits.
    pub fn input(&mut self, arg: usize, width: u32) -> TermId {
        self.intern(Node::Input { arg }, width)
    }

    pub fn lit(&mut self, value: BigUint, width: u32) -> TermId {
        let v = value & all_ones(width);
        self.intern(Node::Lit(v), width)
    }

    fn intern(&mut self, node: Node, width: u32) -> TermId {
        let key = (node, width);
        if let Some(&t) = self.index.get(&key) {
            return t;
        }
        if self.nodes.len() >= MAX_TERMS {
            self.overflowed = true;
            // Any term of the width: the run's result is discarded.
            if let Some(t) = self.nodes.iter().position(|(_, w)| *w == key.1) {
                return t as TermId;
            }
        }
        let t = self.nodes.len() as TermId;
        self.nodes.push(key.clone());
        self.index.insert(key, t);
        t
    }

    /// The pieces of `t` from its lowest bits up: its concatenations taken
    /// apart.
    pub fn pieces(&self, t: TermId) -> Vec<TermId> {
        match *self.node(t) {
            Node::Concat { hi, lo } => {
                let mut p = self.pieces(lo);
                p.extend(self.pieces(hi));
                p
            }
            _ => vec![t],
        }
    }

    pub fn slice(&mut self, x: TermId, hi: u32, lo: u32) -> TermId {
        let width = self.width(x);
        if lo == 0 && hi + 1 == width {
            return x;
        }
        if let Some(&t) = self.slices.get(&(x, hi, lo)) {
            return t;
        }
        let t = self.slice_of(x, hi, lo);
        self.slices.insert((x, hi, lo), t);
        t
    }

    fn slice_of(&mut self, x: TermId, hi: u32, lo: u32) -> TermId {
        let width = self.width(x);
        let w = hi - lo + 1;
        match self.node(x).clone() {
            Node::Lit(v) => self.lit(v >> lo, w),
            Node::Extract { x: y, lo: lo2, .. } => self.slice(y, hi + lo2, lo + lo2),
            Node::Concat { hi: h, lo: l } => {
                let lw = self.width(l);
                if hi < lw {
                    self.slice(l, hi, lo)
                } else if lo >= lw {
                    self.slice(h, hi - lw, lo - lw)
                } else {
                    let top = self.slice(h, hi - lw, 0);
                    let bottom = self.slice(l, lw - 1, lo);
                    self.join(top, bottom)
                }
            }
            Node::Ext { x: y, signed } => {
                let yw = self.width(y);
                if hi < yw {
                    self.slice(y, hi, lo)
                } else if !signed && lo >= yw {
                    self.lit(BigUint::zero(), w)
                } else if lo == 0 {
                    self.extend(y, w, signed)
                } else {
                    self.intern(Node::Extract { x, hi, lo }, w)
                }
            }
            // Truncation commutes with these: the low bits of the result
            // depend only on the low bits of the operands.
            Node::Bin { op, a, b }
                if matches!(op, BvBinOp::And | BvBinOp::Or | BvBinOp::Xor)
                    || (lo == 0 && matches!(op, BvBinOp::Add | BvBinOp::Sub | BvBinOp::Mul)) =>
            {
                let (a, b) = (self.slice(a, hi, lo), self.slice(b, hi, lo));
                self.binary_op(op, a, b)
            }
            Node::Not(a) => {
                let a = self.slice(a, hi, lo);
                self.complement(a)
            }
            // A slice of a shift by a constant is a slice of what is shifted.
            Node::Bin { op: op @ (BvBinOp::LShr | BvBinOp::AShr | BvBinOp::Shl), a, b }
                if self.literal_of(b).is_some_and(|k| *k < BigUint::from(width)) =>
            {
                let k = u32::try_from(self.literal_of(b).expect("a literal")).expect("below the width");
                match op {
                    BvBinOp::Shl if lo >= k => self.slice(a, hi - k, lo - k),
                    BvBinOp::Shl if hi < k => self.lit(BigUint::zero(), w),
                    BvBinOp::LShr | BvBinOp::AShr if hi + k < width => self.slice(a, hi + k, lo + k),
                    BvBinOp::LShr if lo + k >= width => self.lit(BigUint::zero(), w),
                    // The low bits of a left shift are a left shift of the low bits.
                    BvBinOp::Shl if lo == 0 => {
                        let (a, k) = (self.slice(a, hi, 0), self.lit(BigUint::from(k), w));
                        self.binary_op(BvBinOp::Shl, a, k)
                    }
                    // Bits of `a` shifted by fewer than `k` places, zeros below.
                    BvBinOp::Shl => {
                        let part = self.slice(a, hi - k, 0);
                        let (part, k) = (self.extend(part, w, false), self.lit(BigUint::from(k - lo), w));
                        self.binary_op(BvBinOp::Shl, part, k)
                    }
                    _ => self.intern(Node::Extract { x, hi, lo }, w),
                }
            }
            // A minimum or maximum stays whole: its slice is a truncation of it.
            Node::Ite { c, t, e } if !self.is_extremum(c, t, e) => {
                let (t, e) = (self.slice(t, hi, lo), self.slice(e, hi, lo));
                self.choose(c, t, e)
            }
            _ => self.intern(Node::Extract { x, hi, lo }, w),
        }
    }

    pub fn extend(&mut self, x: TermId, to: u32, signed: bool) -> TermId {
        let from = self.width(x);
        if to == from {
            return x;
        }
        match self.node(x).clone() {
            Node::Lit(v) => {
                let mut c = Concrete;
                let v = if signed { c.sign_extend(&v, from, to - from) } else { v };
                self.lit(v, to)
            }
            // An extension of an extension of the same kind (or a zero
            // extension of a sign extension's positive-free…) is one extension.
            Node::Ext { x: y, signed: s } if s == signed || !s => self.extend(y, to, s),
            // `x << k` of a zero extension that keeps every bit of `x`,
            // extended, is the extension shifted (of either kind when its
            // top bit is clear).
            Node::Bin { op: BvBinOp::Shl, a, b } => match (self.node(a).clone(), self.literal_of(b).cloned()) {
                (Node::Ext { x: y, signed: false }, Some(k))
                    if k.to_u32()
                        .is_some_and(|k| self.width(y) + k < from || (!signed && self.width(y) + k == from)) =>
                {
                    let (y, k) = (self.extend(y, to, false), self.lit(k, to));
                    self.binary_op(BvBinOp::Shl, y, k)
                }
                _ => self.intern(Node::Ext { x, signed }, to),
            },
            _ => self.intern(Node::Ext { x, signed }, to),
        }
    }

    pub fn join(&mut self, hi: TermId, lo: TermId) -> TermId {
        let (hw, lw) = (self.width(hi), self.width(lo));
        match (self.node(hi).clone(), self.node(lo).clone()) {
            (Node::Lit(h), Node::Lit(l)) => self.lit((h << lw) | l, hw + lw),
            (Node::Extract { x, hi: h1, lo: l1 }, Node::Extract { x: y, hi: h2, .. }) if x == y && l1 == h2 + 1 => {
                let lo2 = l1 - lw;
                self.slice(x, h1, lo2)
            }
            // Zeros below are a left shift, as code writes it.
            (_, Node::Lit(l)) if l.is_zero() => {
                let (h, k) = (self.extend(hi, hw + lw, false), self.lit(BigUint::from(lw), hw + lw));
                self.binary_op(BvBinOp::Shl, h, k)
            }
            _ => self.intern(Node::Concat { hi, lo }, hw + lw),
        }
    }

    pub fn binary_op(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.literal_of(a).cloned(), self.literal_of(b).cloned()) {
            let v = Concrete.binary(op, &x, &y, w);
            return self.lit(v, w);
        }
        let zero = |s: &Self, t: TermId| s.literal_of(t).is_some_and(Zero::is_zero);
        let one = |s: &Self, t: TermId| s.literal_of(t).is_some_and(One::is_one);
        let ones = |s: &Self, t: TermId| s.literal_of(t).is_some_and(|v| *v == all_ones(w));
        use BvBinOp::*;
        match op {
            Add | Or | Xor if zero(self, a) => return b,
            Add | Sub | Or | Xor | Shl | LShr | AShr if zero(self, b) => return a,
            Mul if one(self, a) => return b,
            Mul | UDiv | SDiv if one(self, b) => return a,
            And | Mul if zero(self, a) || zero(self, b) => return self.lit(BigUint::zero(), w),
            And if ones(self, a) => return b,
            And if ones(self, b) => return a,
            _ => {}
        }
        if let Some(narrow) = self.narrow_shift(op, a, b) {
            return narrow;
        }
        self.intern(Node::Bin { op, a, b }, w)
    }

    pub fn complement(&mut self, a: TermId) -> TermId {
        let w = self.width(a);
        match self.node(a).clone() {
            Node::Lit(v) => self.lit(v ^ all_ones(w), w),
            Node::Not(x) => x,
            _ => self.intern(Node::Not(a), w),
        }
    }

    pub fn compare_op(&mut self, op: BvCmp, a: TermId, b: TermId) -> TermId {
        if let (Some(x), Some(y)) = (self.literal_of(a).cloned(), self.literal_of(b).cloned()) {
            let w = self.width(a);
            let v = Concrete.compare(op, &x, &y, w);
            return self.lit(v, 1);
        }
        self.intern(Node::Cmp { op, a, b }, 1)
    }

    pub fn choose(&mut self, c: TermId, t: TermId, e: TermId) -> TermId {
        if let Some(v) = self.literal_of(c) {
            return if v.is_zero() { e } else { t };
        }
        if t == e {
            return t;
        }
        if let Some(clamped) = self.clamp(c, t, e) {
            return clamped;
        }
        let w = self.width(t);
        // `c ? 1 : 0` of one bit is `c`.
        if w == 1 && self.literal_of(t).is_some_and(One::is_one) && self.literal_of(e).is_some_and(Zero::is_zero) {
            return c;
        }
        self.intern(Node::Ite { c, t, e }, w)
    }
}

impl Terms {
    /// A right shift by a constant of an extension, as the shift of what
    /// is extended, extended (`(zext x) >> k` is `zext (x >> k)`, and a
    /// sign extension shifted arithmetically keeps its sign): the width
    /// code computes at, where the semantics widen first.
    fn narrow_shift(&mut self, op: BvBinOp, a: TermId, b: TermId) -> Option<TermId> {
        let Node::Ext { x: y, signed } = self.node(a).clone() else { return None };
        let (w, yw) = (self.width(a), self.width(y));
        let k = self.literal_of(b)?.to_u32().unwrap_or(u32::MAX);
        let shifted = match (op, signed) {
            (BvBinOp::LShr | BvBinOp::AShr, false) if k >= yw => return Some(self.lit(BigUint::zero(), w)),
            (BvBinOp::LShr | BvBinOp::AShr, false) => {
                let k = self.lit(BigUint::from(k), yw);
                self.binary_op(BvBinOp::LShr, y, k)
            }
            (BvBinOp::AShr, true) => {
                let k = self.lit(BigUint::from(k.min(yw - 1)), yw);
                self.binary_op(BvBinOp::AShr, y, k)
            }
            _ => return None,
        };
        Some(self.extend(shifted, w, signed))
    }

    /// Whether `c ? t : e` is a minimum or maximum: `c` compares `t` and `e`.
    fn is_extremum(&self, c: TermId, t: TermId, e: TermId) -> bool {
        matches!(self.node(c), Node::Cmp { op: BvCmp::Slt | BvCmp::Ult | BvCmp::Sle | BvCmp::Ule, a, b }
            if (*a, *b) == (t, e) || (*a, *b) == (e, t))
    }

    /// A saturation written as tests, `s < L ? l : (H < s ? h : low(s))`
    /// (either test first, `l` and `h` the bounds cut to the result's
    /// width, `L <= H`): the low bits of `max(min(s, H), L)`, the form
    /// code writes a clamp in.
    fn clamp(&mut self, c: TermId, t: TermId, e: TermId) -> Option<TermId> {
        let Node::Ite { c: c2, t: t2, e: e2 } = self.node(e).clone() else { return None };
        let Node::Cmp { op, a: a1, b: b1 } = self.node(c).clone() else { return None };
        let Node::Cmp { op: op2, a: a2, b: b2 } = self.node(c2).clone() else { return None };
        if op != op2 || !matches!(op, BvCmp::Slt | BvCmp::Ult) {
            return None;
        }
        let is_lit = |x: TermId| self.literal_of(x).is_some();
        // (value, low bound, high bound, low result, high result)
        let (s, lo, hi, l, h) = if a1 == b2 && is_lit(b1) && is_lit(a2) {
            (a1, b1, a2, t, t2)
        } else if b1 == a2 && is_lit(a1) && is_lit(b2) {
            (b1, b2, a1, t2, t)
        } else {
            return None;
        };
        let (w, ws) = (self.width(t), self.width(s));
        if ws < w || e2 != self.slice(s, w - 1, 0) {
            return None;
        }
        let (lv, hv) = (self.literal_of(lo)?.clone(), self.literal_of(hi)?.clone());
        let cut = |v: &BigUint| v & all_ones(w);
        if self.literal_of(l) != Some(&cut(&lv)) || self.literal_of(h) != Some(&cut(&hv)) {
            return None;
        }
        let ordered = Concrete.compare(if op == BvCmp::Slt { BvCmp::Sle } else { BvCmp::Ule }, &lv, &hv, ws);
        if ordered.is_zero() {
            return None;
        }
        let below_high = self.compare_op(op, hi, s);
        let min = self.intern(Node::Ite { c: below_high, t: hi, e: s }, ws);
        let below_low = self.compare_op(op, min, lo);
        let max = self.intern(Node::Ite { c: below_low, t: lo, e: min }, ws);
        Some(if ws == w { max } else { self.intern(Node::Extract { x: max, hi: w - 1, lo: 0 }, w) })
    }
}

impl Domain for Terms {
    type Bv = TermId;

    fn literal(&mut self, value: &BigUint, width: u32) -> TermId {
        self.lit(value.clone(), width)
    }
    fn as_literal(&mut self, bv: &TermId, _width: u32) -> Option<BigUint> {
        self.literal_of(*bv).cloned()
    }
    fn extract(&mut self, bv: &TermId, _width: u32, hi: u32, lo: u32) -> TermId {
        self.slice(*bv, hi, lo)
    }
    fn zero_extend(&mut self, bv: &TermId, width: u32, extra: u32) -> TermId {
        self.extend(*bv, width + extra, false)
    }
    fn sign_extend(&mut self, bv: &TermId, width: u32, extra: u32) -> TermId {
        self.extend(*bv, width + extra, true)
    }
    fn concat(&mut self, hi: &TermId, _hw: u32, lo: &TermId, _lw: u32) -> TermId {
        self.join(*hi, *lo)
    }
    fn binary(&mut self, op: BvBinOp, a: &TermId, b: &TermId, _width: u32) -> TermId {
        self.binary_op(op, *a, *b)
    }
    fn not(&mut self, a: &TermId, _width: u32) -> TermId {
        self.complement(*a)
    }
    fn compare(&mut self, op: BvCmp, a: &TermId, b: &TermId, _width: u32) -> TermId {
        self.compare_op(op, *a, *b)
    }
    fn ite(&mut self, cond: &TermId, then: &TermId, otherwise: &TermId, _width: u32) -> TermId {
        self.choose(*cond, *then, *otherwise)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_a_concatenation_are_its_pieces() {
        let mut t = Terms::default();
        let a = t.input(0, 16);
        let b = t.input(1, 16);
        let j = t.join(a, b);
        assert_eq!(t.slice(j, 31, 16), a);
        assert_eq!(t.slice(j, 15, 0), b);
        let lo = t.slice(a, 7, 0);
        let hi = t.slice(a, 15, 8);
        assert_eq!(t.join(hi, lo), a);
    }

    #[test]
    fn a_saturation_by_tests_is_a_clamp() {
        let mut t = Terms::default();
        let (a, b) = (t.input(0, 8), t.input(1, 8));
        let (wa, wb) = (t.extend(a, 9, true), t.extend(b, 9, true));
        let s = t.binary_op(BvBinOp::Add, wa, wb);
        let (lo9, hi9) = (t.lit(BigUint::from(0x180u32), 9), t.lit(BigUint::from(127u32), 9));
        let (lo8, hi8) = (t.lit(BigUint::from(0x80u32), 8), t.lit(BigUint::from(127u32), 8));
        let low = t.slice(s, 7, 0);
        let above = t.compare_op(BvCmp::Slt, hi9, s);
        let inner = t.choose(above, hi8, low);
        let below = t.compare_op(BvCmp::Slt, s, lo9);
        let r = t.choose(below, lo8, inner);
        // The low 8 bits of max(min(s, 127), -128), the slice not pushed into it.
        let Node::Extract { x: max, hi: 7, lo: 0 } = *t.node(r) else { panic!("a truncation: {:?}", t.node(r)) };
        let Node::Ite { c, t: bound, e: min } = *t.node(max) else { panic!("a maximum") };
        assert_eq!(bound, lo9);
        assert_eq!(t.node(c), &Node::Cmp { op: BvCmp::Slt, a: min, b: lo9 });
        assert!(matches!(*t.node(min), Node::Ite { t: h, e, .. } if h == hi9 && e == s));
        // Results other than the bounds are no clamp.
        let swapped = t.choose(above, lo8, low);
        let r2 = t.choose(below, hi8, swapped);
        assert!(matches!(t.node(r2), Node::Ite { .. }));
    }

    #[test]
    fn low_bits_of_a_wide_sum_are_a_narrow_sum() {
        let mut t = Terms::default();
        let (a, b) = (t.input(0, 8), t.input(1, 8));
        let (wa, wb) = (t.extend(a, 16, true), t.extend(b, 16, true));
        let s = t.binary_op(BvBinOp::Add, wa, wb);
        let low = t.slice(s, 7, 0);
        assert_eq!(t.node(low), &Node::Bin { op: BvBinOp::Add, a, b });
    }

    #[test]
    fn a_right_shift_of_an_extension_is_at_the_narrow_width() {
        let mut t = Terms::default();
        let a = t.input(0, 16);
        let (za, sa) = (t.extend(a, 17, false), t.extend(a, 17, true));
        let eight = t.lit(BigUint::from(8u8), 17);
        // (zext a) >> 8, cut to 16 bits, is a >> 8.
        let z = t.binary_op(BvBinOp::LShr, za, eight);
        let low = t.slice(z, 15, 0);
        assert!(matches!(*t.node(low), Node::Bin { op: BvBinOp::LShr, a: x, .. } if x == a), "{:?}", t.node(low));
        // An arithmetic shift of a sign extension keeps its sign.
        let s = t.binary_op(BvBinOp::AShr, sa, eight);
        let low = t.slice(s, 15, 0);
        assert!(matches!(*t.node(low), Node::Bin { op: BvBinOp::AShr, a: x, .. } if x == a), "{:?}", t.node(low));
        // Shifting every bit out of a zero extension leaves zero.
        let sixteen = t.lit(BigUint::from(16u8), 17);
        let gone = t.binary_op(BvBinOp::LShr, za, sixteen);
        assert_eq!(t.literal_of(gone), Some(&BigUint::zero()));
    }

    #[test]
    fn zeros_below_are_a_left_shift() {
        let mut t = Terms::default();
        let a = t.input(0, 32);
        let zeros = t.lit(BigUint::zero(), 15);
        let j = t.join(a, zeros);
        let Node::Bin { op: BvBinOp::Shl, a: ext, b } = *t.node(j) else { panic!("a shift: {:?}", t.node(j)) };
        assert_eq!(t.literal_of(b), Some(&BigUint::from(15u8)));
        assert_eq!(t.node(ext), &Node::Ext { x: a, signed: false });
        // Extended further, it is the input extended further and shifted.
        let wide = t.extend(j, 64, false);
        let Node::Bin { op: BvBinOp::Shl, a: ext, .. } = *t.node(wide) else { panic!("a shift: {:?}", t.node(wide)) };
        assert_eq!((t.node(ext), t.width(ext)), (&Node::Ext { x: a, signed: false }, 64));
        // Its pieces are still the input's.
        assert_eq!(t.slice(j, 46, 15), a);
    }
}
