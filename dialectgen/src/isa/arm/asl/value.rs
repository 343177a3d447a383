//! Values known while partially evaluating ASL: decode-time constants and
//! the static types of the parts that depend on data.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

/// A value fixed by the encoding (or computed from such values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Const {
    Int(BigInt),
    Bool(bool),
    /// `width` bits.
    Bits {
        value: BigUint,
        width: u32,
    },
    /// An enumeration constant (`ReduceOp_ADD`).
    Enum(String),
}

/// The ASL type of a data-dependent value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// An integer, with the range it is known to lie in when known.
    Int(Option<(BigInt, BigInt)>),
    Bool,
    Bits(u32),
}

impl Const {
    pub fn bits(value: BigUint, width: u32) -> Const {
        let mask = (BigUint::one() << width) - 1u8;
        Const::Bits { value: value & mask, width }
    }
    pub fn describe(&self) -> String {
        match self {
            Const::Int(i) => i.to_string(),
            Const::Bool(b) => b.to_string(),
            Const::Bits { value, width } => format!("'{}'", bit_string(value, *width)),
            Const::Enum(e) => e.clone(),
        }
    }
}

pub fn bit_string(value: &BigUint, width: u32) -> String {
    (0..width).rev().map(|i| if value.bit(u64::from(i)) { '1' } else { '0' }).collect()
}

/// Parses a bit-string literal without `x`.
pub fn parse_bits(s: &str) -> Option<Const> {
    let mut v = BigUint::zero();
    for c in s.chars() {
        v <<= 1;
        match c {
            '1' => v |= BigUint::one(),
            '0' => {}
            _ => return None,
        }
    }
    Some(Const::Bits { value: v, width: s.len() as u32 })
}

/// Whether `value` matches a pattern such as `'1x0'`.
pub fn matches_pattern(value: &BigUint, width: u32, pattern: &str) -> bool {
    pattern.len() as u32 == width
        && pattern.chars().enumerate().all(|(k, c)| {
            let bit = value.bit(u64::from(width - 1 - k as u32));
            match c {
                '0' => !bit,
                '1' => bit,
                _ => true,
            }
        })
}

/// The integer an unsigned reading of bits gives, and the signed one.
pub fn uint(value: &BigUint) -> BigInt {
    BigInt::from(value.clone())
}
pub fn sint(value: &BigUint, width: u32) -> BigInt {
    if width > 0 && value.bit(u64::from(width - 1)) {
        BigInt::from(value.clone()) - (BigInt::one() << width)
    } else {
        BigInt::from(value.clone())
    }
}

/// Two's-complement bits of `v` in `width` bits.
pub fn to_bits(v: &BigInt, width: u32) -> BigUint {
    crate::eval::value::int_bits(v, width)
}

/// Interval helpers for data-dependent integers.
pub fn range_add(a: &Option<(BigInt, BigInt)>, b: &Option<(BigInt, BigInt)>) -> Option<(BigInt, BigInt)> {
    let (a, b) = (a.as_ref()?, b.as_ref()?);
    Some((&a.0 + &b.0, &a.1 + &b.1))
}
pub fn range_neg(a: &Option<(BigInt, BigInt)>) -> Option<(BigInt, BigInt)> {
    let a = a.as_ref()?;
    Some((-&a.1, -&a.0))
}
pub fn range_union(a: &Option<(BigInt, BigInt)>, b: &Option<(BigInt, BigInt)>) -> Option<(BigInt, BigInt)> {
    let (a, b) = (a.as_ref()?, b.as_ref()?);
    Some((a.0.clone().min(b.0.clone()), a.1.clone().max(b.1.clone())))
}
pub fn range_mul(a: &Option<(BigInt, BigInt)>, b: &Option<(BigInt, BigInt)>) -> Option<(BigInt, BigInt)> {
    let (a, b) = (a.as_ref()?, b.as_ref()?);
    let p = [&a.0 * &b.0, &a.0 * &b.1, &a.1 * &b.0, &a.1 * &b.1];
    Some((p.iter().min()?.clone(), p.iter().max()?.clone()))
}
