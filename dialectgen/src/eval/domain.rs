//! The fixed-width bitvector operations an evaluation domain provides.
//!
//! The evaluator in [`super::machine`] gives pseudocode its meaning in terms of
//! these operations only, so a concrete interpreter and a Z3 encoding that
//! implement them compute the same function by construction.

use num_bigint::BigUint;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvBinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    URem,
    SDiv,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvCmp {
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

/// A bitvector theory. Both operands of a binary operation have the same
/// width, passed as `width`; comparisons yield a 1-bit vector.
pub trait Domain {
    type Bv: Clone;

    fn literal(&mut self, value: &BigUint, width: u32) -> Self::Bv;
    /// The value of `bv` when it is known without solving.
    fn as_literal(&mut self, bv: &Self::Bv, width: u32) -> Option<BigUint>;
    fn extract(&mut self, bv: &Self::Bv, width: u32, hi: u32, lo: u32) -> Self::Bv;
    fn zero_extend(&mut self, bv: &Self::Bv, width: u32, extra: u32) -> Self::Bv;
    fn sign_extend(&mut self, bv: &Self::Bv, width: u32, extra: u32) -> Self::Bv;
    /// `hi` above `lo`.
    fn concat(&mut self, hi: &Self::Bv, hi_width: u32, lo: &Self::Bv, lo_width: u32) -> Self::Bv;
    fn binary(&mut self, op: BvBinOp, a: &Self::Bv, b: &Self::Bv, width: u32) -> Self::Bv;
    fn not(&mut self, a: &Self::Bv, width: u32) -> Self::Bv;
    fn compare(&mut self, op: BvCmp, a: &Self::Bv, b: &Self::Bv, width: u32) -> Self::Bv;
    /// `cond` is 1 bit wide.
    fn ite(&mut self, cond: &Self::Bv, then: &Self::Bv, otherwise: &Self::Bv, width: u32) -> Self::Bv;
}
