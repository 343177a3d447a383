//! Runtime values of the semantics IR and the width rules of exact arithmetic.
//!
//! A bitvector value stands for an exact integer: its bits read as signed or
//! unsigned. Arithmetic widens so that results are exact (`u8 + u8` is `u9`,
//! `u8 - u8` is `s10`, `u8 * s8` is `s17`); an assignment to a bit range
//! truncates. This is how vendor pseudocode such as `Saturate16(a + b)` is
//! meant to be read.

use super::domain::Domain;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::Zero;

#[derive(Clone, Debug)]
pub struct Bits<B> {
    pub bv: B,
    pub width: u32,
    pub signed: bool,
}

#[derive(Clone, Debug)]
pub enum Value<B> {
    /// An unbounded integer known at evaluation time (loop counters, literals).
    Int(BigInt),
    Bits(Bits<B>),
}

/// Two's-complement bits of `v` in `width` bits.
pub fn int_bits(v: &BigInt, width: u32) -> BigUint {
    let modulus = BigInt::from(1u8) << width;
    let r = ((v % &modulus) + &modulus) % &modulus;
    r.to_biguint().unwrap_or_default()
}

/// The integer that `bits` stands for.
pub fn bits_int(bits: &BigUint, width: u32, signed: bool) -> BigInt {
    if signed && width > 0 && bits.bit(u64::from(width - 1)) {
        BigInt::from(bits.clone()) - (BigInt::from(1u8) << width)
    } else {
        BigInt::from(bits.clone())
    }
}

/// The smallest bitvector holding `v` exactly.
pub fn int_to_bits<D: Domain>(d: &mut D, v: &BigInt) -> Bits<D::Bv> {
    if v.sign() == Sign::Minus {
        let magnitude = (-v - 1u8).magnitude().bits() as u32;
        let width = magnitude + 1;
        Bits { bv: d.literal(&int_bits(v, width), width), width, signed: true }
    } else {
        let width = (v.magnitude().bits() as u32).max(1);
        Bits { bv: d.literal(v.magnitude(), width), width, signed: false }
    }
}

/// Extend (per signedness) or truncate to `width`.
pub fn resize<D: Domain>(d: &mut D, b: &Bits<D::Bv>, width: u32) -> D::Bv {
    use std::cmp::Ordering;
    match b.width.cmp(&width) {
        Ordering::Equal => b.bv.clone(),
        Ordering::Less if b.signed => d.sign_extend(&b.bv, b.width, width - b.width),
        Ordering::Less => d.zero_extend(&b.bv, b.width, width - b.width),
        Ordering::Greater => d.extract(&b.bv, b.width, width - 1, 0),
    }
}

/// The same integer as a signed bitvector.
pub fn as_signed<D: Domain>(d: &mut D, b: &Bits<D::Bv>) -> Bits<D::Bv> {
    if b.signed {
        b.clone()
    } else {
        Bits { bv: d.zero_extend(&b.bv, b.width, 1), width: b.width + 1, signed: true }
    }
}

/// Both operands at one width and signedness, preserving their integer values.
pub fn unify<D: Domain>(d: &mut D, a: &Bits<D::Bv>, b: &Bits<D::Bv>) -> (D::Bv, D::Bv, u32, bool) {
    let (a, b) = if a.signed == b.signed { (a.clone(), b.clone()) } else { (as_signed(d, a), as_signed(d, b)) };
    let width = a.width.max(b.width);
    (resize(d, &a, width), resize(d, &b, width), width, a.signed)
}

impl<B: Clone> Value<B> {
    pub fn is_int_zero(&self) -> bool {
        matches!(self, Value::Int(v) if v.is_zero())
    }
}
