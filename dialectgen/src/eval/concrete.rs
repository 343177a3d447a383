//! The concrete interpreter's domain: bitvectors as unsigned big integers.

use super::domain::{BvBinOp, BvCmp, Domain};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Values are kept reduced modulo `2^width`.
#[derive(Default)]
pub struct Concrete;

fn mask(width: u32) -> BigUint {
    (BigUint::one() << width) - BigUint::one()
}

fn to_signed(v: &BigUint, width: u32) -> num_bigint::BigInt {
    if width > 0 && v.bit(u64::from(width - 1)) {
        num_bigint::BigInt::from(v.clone()) - (num_bigint::BigInt::one() << width)
    } else {
        num_bigint::BigInt::from(v.clone())
    }
}

fn from_signed(v: &num_bigint::BigInt, width: u32) -> BigUint {
    let m = num_bigint::BigInt::one() << width;
    let r = ((v % &m) + &m) % &m;
    r.to_biguint().expect("non-negative after reduction")
}

impl Domain for Concrete {
    type Bv = BigUint;

    fn literal(&mut self, value: &BigUint, width: u32) -> BigUint {
        value & mask(width)
    }
    fn as_literal(&mut self, bv: &BigUint, _width: u32) -> Option<BigUint> {
        Some(bv.clone())
    }
    fn extract(&mut self, bv: &BigUint, _width: u32, hi: u32, lo: u32) -> BigUint {
        (bv >> lo) & mask(hi - lo + 1)
    }
    fn zero_extend(&mut self, bv: &BigUint, _width: u32, _extra: u32) -> BigUint {
        bv.clone()
    }
    fn sign_extend(&mut self, bv: &BigUint, width: u32, extra: u32) -> BigUint {
        if width > 0 && bv.bit(u64::from(width - 1)) {
            bv | (mask(extra) << width)
        } else {
            bv.clone()
        }
    }
    fn concat(&mut self, hi: &BigUint, _hw: u32, lo: &BigUint, lo_width: u32) -> BigUint {
        (hi << lo_width) | lo
    }
    fn binary(&mut self, op: BvBinOp, a: &BigUint, b: &BigUint, width: u32) -> BigUint {
        let m = mask(width);
        let shift_amount = |b: &BigUint| -> Option<u32> { u32::try_from(b).ok().filter(|s| *s < width) };
        match op {
            BvBinOp::Add => (a + b) & m,
            BvBinOp::Sub => ((a + (BigUint::one() << width)) - b) & m,
            BvBinOp::Mul => (a * b) & m,
            BvBinOp::UDiv => {
                if b.is_zero() {
                    m
                } else {
                    a / b
                }
            }
            BvBinOp::URem => {
                if b.is_zero() {
                    a.clone()
                } else {
                    a % b
                }
            }
            BvBinOp::SDiv | BvBinOp::SRem => {
                let (sa, sb) = (to_signed(a, width), to_signed(b, width));
                if sb.is_zero() {
                    return if op == BvBinOp::SDiv {
                        if sa < num_bigint::BigInt::zero() {
                            BigUint::one()
                        } else {
                            m
                        }
                    } else {
                        a.clone()
                    };
                }
                let r = if op == BvBinOp::SDiv { &sa / &sb } else { &sa % &sb };
                from_signed(&r, width)
            }
            BvBinOp::And => a & b,
            BvBinOp::Or => a | b,
            BvBinOp::Xor => a ^ b,
            BvBinOp::Shl => match shift_amount(b) {
                Some(s) => (a << s) & m,
                None => BigUint::zero(),
            },
            BvBinOp::LShr => match shift_amount(b) {
                Some(s) => a >> s,
                None => BigUint::zero(),
            },
            BvBinOp::AShr => {
                let negative = width > 0 && a.bit(u64::from(width - 1));
                match shift_amount(b) {
                    Some(s) => {
                        let shifted = a >> s;
                        if negative && s > 0 {
                            shifted | (mask(s) << (width - s))
                        } else {
                            shifted
                        }
                    }
                    None if negative => m,
                    None => BigUint::zero(),
                }
            }
        }
    }
    fn not(&mut self, a: &BigUint, width: u32) -> BigUint {
        a ^ mask(width)
    }
    fn compare(&mut self, op: BvCmp, a: &BigUint, b: &BigUint, width: u32) -> BigUint {
        let r = match op {
            BvCmp::Eq => a == b,
            BvCmp::Ult => a < b,
            BvCmp::Ule => a <= b,
            BvCmp::Slt => to_signed(a, width) < to_signed(b, width),
            BvCmp::Sle => to_signed(a, width) <= to_signed(b, width),
        };
        BigUint::from(u8::from(r))
    }
    fn ite(&mut self, cond: &BigUint, then: &BigUint, otherwise: &BigUint, _w: u32) -> BigUint {
        if cond.is_zero() {
            otherwise.clone()
        } else {
            then.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_shift_fills_with_sign() {
        let mut d = Concrete;
        let v = d.binary(BvBinOp::AShr, &BigUint::from(0x80u32), &BigUint::from(3u32), 8);
        assert_eq!(v, BigUint::from(0xF0u32));
        let v = d.binary(BvBinOp::AShr, &BigUint::from(0x80u32), &BigUint::from(9u32), 8);
        assert_eq!(v, BigUint::from(0xFFu32));
    }

    #[test]
    fn subtraction_wraps() {
        let mut d = Concrete;
        assert_eq!(d.binary(BvBinOp::Sub, &BigUint::from(1u32), &BigUint::from(2u32), 8), BigUint::from(0xFFu32));
    }

    #[test]
    fn signed_division_truncates_toward_zero() {
        let mut d = Concrete;
        // -7 / 2 = -3 in 8 bits
        assert_eq!(d.binary(BvBinOp::SDiv, &BigUint::from(0xF9u32), &BigUint::from(2u32), 8), BigUint::from(0xFDu32));
    }
}
