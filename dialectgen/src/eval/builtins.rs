//! The built-in functions of the semantics IR (`Saturate(x, 16)`,
//! `ZeroExtend(x, 64)`, `Abs`, `PopCount`, …), in terms of domain
//! operations. Front ends map their vendor's helper names onto these.

use super::domain::{BvBinOp, BvCmp, Domain};
use super::machine::{literal_of, Machine, R};
use super::value::{as_signed, resize, unify, Bits, Value};
use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

/// Multiplicative inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0 maps to 0).
pub fn gf2p8_inverse(x: u8) -> u8 {
    fn mul(mut a: u8, mut b: u8) -> u8 {
        let mut p = 0u8;
        while b != 0 {
            if b & 1 != 0 {
                p ^= a;
            }
            let carry = a & 0x80 != 0;
            a <<= 1;
            if carry {
                a ^= 0x1B;
            }
            b >>= 1;
        }
        p
    }
    // x^254 = x^-1 for x != 0
    let mut result = 1u8;
    let mut base = x;
    let mut e = 254u32;
    while e > 0 {
        if e & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    if x == 0 {
        0
    } else {
        result
    }
}

impl<D: Domain> Machine<'_, D> {
    fn arity(&self, name: &str, args: &[Value<D::Bv>], n: usize) -> R<()> {
        if args.len() == n {
            Ok(())
        } else {
            self.invalid(format!("`{name}` takes {n} argument(s), got {}", args.len()))
        }
    }

    /// The width of a sized helper (`Saturate(x, 16)`): its second argument.
    fn helper_width(&mut self, name: &str, prefix: &str, args: &mut Vec<Value<D::Bv>>) -> R<Option<u32>> {
        if name != prefix {
            return Ok(None);
        }
        self.arity(name, args, 2)?;
        let w = args.pop().expect("two arguments");
        match self.literal_int(&w)?.and_then(|w| w.to_u32()).filter(|w| *w > 0 && *w <= 512) {
            Some(w) => Ok(Some(w)),
            None => self.invalid(format!("`{name}` needs a constant width")),
        }
    }

    pub(crate) fn builtin(&mut self, name: &str, mut args: Vec<Value<D::Bv>>) -> R<Value<D::Bv>> {
        if let Some(w) = self.helper_width(name, "SaturateU", &mut args)? {
            return self.saturate(&args[0], w, false);
        }
        if let Some(w) = self.helper_width(name, "Saturate", &mut args)? {
            return self.saturate(&args[0], w, true);
        }
        for (prefix, mode) in [("SignExtend", 's'), ("ZeroExtend", 'z'), ("Truncate", 't')] {
            if let Some(w) = self.helper_width(name, prefix, &mut args)? {
                let b = self.to_bits(&args[0])?;
                let reinterpreted = Bits { signed: mode == 's', ..b };
                let bv = resize(self.dom, &reinterpreted, w);
                return Ok(Value::Bits(Bits { bv, width: w, signed: mode == 's' }));
            }
        }
        match name {
            "Signed" | "Unsigned" => {
                self.arity(name, &args, 1)?;
                let b = self.to_bits(&args[0])?;
                Ok(Value::Bits(Bits { signed: name == "Signed", ..b }))
            }
            "AsInteger" => self.as_integer(name, &args),
            "WrapAs" => self.wrap_as(name, &args),
            "NarrowAs" => self.narrow_as(name, &args),
            "SaturateAs" => self.saturate_as(name, &args),
            "Abs" => self.abs(name, &args),
            "Max" | "Min" => self.max_min(name, &args),
            "PopCount" => self.pop_count(name, &args),
            "ShiftInt" => self.shift_int(name, &args),
            "CountLeadingZeros" | "CountLeadingSignBits" => self.count_leading(name, &args),
            "GaloisInverse" => self.galois_inverse(name, &args),
            _ => Err(super::machine::EvalError::UnknownFunction { span: self.span, name: name.to_string() }),
        }
    }

    /// `AsInteger(x, flag)`: the bits read as an integer, unsigned when the
    /// flag is non-zero.
    fn as_integer(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 2)?;
        let Some(flag) = self.literal_int(&args[1])? else {
            return self.invalid("`AsInteger` needs a constant signedness");
        };
        let b = self.to_bits(&args[0])?;
        Ok(Value::Bits(Bits { signed: flag.is_zero(), ..b }))
    }

    /// `WrapAs(x, width, flag)`: C's conversion to an integer type of `width`
    /// bits, the value modulo 2^width, read as unsigned when the flag is non-zero.
    fn wrap_as(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        let (w, signed) = self.width_and_signedness(name, args, 4096)?;
        let b = self.to_bits(&args[0])?;
        let bv = resize(self.dom, &b, w);
        Ok(Value::Bits(Bits { bv, width: w, signed }))
    }

    /// The constant width (1 to `max_width`) and signedness (signed when
    /// the flag is zero) of `name(x, width, flag)`.
    fn width_and_signedness(&mut self, name: &str, args: &[Value<D::Bv>], max_width: u32) -> R<(u32, bool)> {
        self.arity(name, args, 3)?;
        let (Some(w), Some(flag)) = (self.literal_int(&args[1])?, self.literal_int(&args[2])?) else {
            return self.invalid(format!("`{name}` needs a constant width and signedness"));
        };
        match w.to_u32() {
            Some(w) if w > 0 && w <= max_width => Ok((w, flag.is_zero())),
            _ => self.invalid(format!("`{name}` width out of range")),
        }
    }

    /// `NarrowAs(x, width, flag, saturate)`: `WrapAs` (saturate 0) or
    /// `SaturateAs` (saturate 1) by a number.
    fn narrow_as(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 4)?;
        let Some(saturate) = self.literal_int(&args[3])? else {
            return self.invalid("`NarrowAs` needs a constant saturation flag");
        };
        let narrow = if saturate.is_zero() { "WrapAs" } else { "SaturateAs" };
        self.builtin(narrow, args[..3].to_vec())
    }

    /// `SaturateAs(x, width, flag)`: saturate to `width` bits, unsigned when
    /// the flag is non-zero.
    fn saturate_as(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        let (w, signed) = self.width_and_signedness(name, args, 512)?;
        self.saturate(&args[0], w, signed)
    }

    /// `Abs(x)`: exact on integers, unsigned bits of the magnitude on signed
    /// bits, unsigned bits unchanged.
    fn abs(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 1)?;
        if let Value::Int(i) = &args[0] {
            return Ok(Value::Int(num_traits::Signed::abs(i)));
        }
        let b = self.to_bits(&args[0])?;
        if !b.signed {
            return Ok(Value::Bits(b));
        }
        let zero = self.dom.literal(&BigUint::zero(), b.width);
        let negative = self.dom.compare(BvCmp::Slt, &b.bv, &zero, b.width);
        let negated = self.dom.binary(BvBinOp::Sub, &zero, &b.bv, b.width);
        let bv = self.dom.ite(&negative, &negated, &b.bv, b.width);
        Ok(Value::Bits(Bits { bv, width: b.width, signed: false }))
    }

    /// `Max(a, b)` or `Min(a, b)`: one of the two values, chosen by comparison.
    fn max_min(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 2)?;
        let op = if name == "Max" { crate::sema::ir::BinOp::Gt } else { crate::sema::ir::BinOp::Lt };
        let c = self.binary(op, args[0].clone(), args[1].clone())?;
        if let Some(t) = self.truth_literal(&c)? {
            return Ok(if t { args[0].clone() } else { args[1].clone() });
        }
        let c = self.truth(&c)?;
        self.merge_value(&c, args[0].clone(), args[1].clone())
    }

    /// `PopCount(x)`: the number of set bits, as unsigned bits just wide
    /// enough to hold the width.
    fn pop_count(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 1)?;
        let b = self.to_bits(&args[0])?;
        let out_width = 32 - b.width.leading_zeros();
        let mut sum = self.dom.literal(&BigUint::zero(), out_width);
        for i in 0..b.width {
            let bit = self.dom.extract(&b.bv, b.width, i, i);
            let bit = self.dom.zero_extend(&bit, 1, out_width - 1);
            sum = self.dom.binary(BvBinOp::Add, &sum, &bit, out_width);
        }
        Ok(Value::Bits(Bits { bv: sum, width: out_width, signed: false }))
    }

    /// `ShiftInt(x, s, bound)`: exact integer shift, left by a signed amount,
    /// right when it is negative; the third argument bounds the left shift.
    fn shift_int(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 3)?;
        let bound = match self.literal_int(&args[2])?.and_then(|b| b.to_u32()) {
            Some(b) if b <= 1024 => b,
            _ => return self.invalid("`ShiftInt` needs a constant bound"),
        };
        if let Some(n) = self.literal_int(&args[1])? {
            let op = if n.sign() == num_bigint::Sign::Minus {
                crate::sema::ir::BinOp::Shr
            } else {
                crate::sema::ir::BinOp::Shl
            };
            let amount = Value::Int(num_traits::Signed::abs(&n));
            if op == crate::sema::ir::BinOp::Shl && n > BigInt::from(bound) {
                return self.invalid(format!("`ShiftInt` by {n}, beyond its bound {bound}"));
            }
            return self.binary(op, args[0].clone(), amount);
        }
        let x = self.to_bits(&args[0])?;
        let s = self.to_bits(&args[1])?;
        let s = as_signed(self.dom, &s);
        let w = x.width + bound;
        let ww = w.max(s.width + 1);
        let xw = resize(self.dom, &x, ww);
        let sw = resize(self.dom, &s, ww);
        let zero = self.dom.literal(&BigUint::zero(), ww);
        let negative = self.dom.compare(BvCmp::Slt, &sw, &zero, ww);
        let left = self.dom.binary(BvBinOp::Shl, &xw, &sw, ww);
        let minus = self.dom.binary(BvBinOp::Sub, &zero, &sw, ww);
        let right = self.dom.binary(if x.signed { BvBinOp::AShr } else { BvBinOp::LShr }, &xw, &minus, ww);
        let r = self.dom.ite(&negative, &right, &left, ww);
        let bv = if ww > w { self.dom.extract(&r, ww, w - 1, 0) } else { r };
        Ok(Value::Bits(Bits { bv, width: w, signed: x.signed }))
    }

    /// `CountLeadingZeros(x)` or `CountLeadingSignBits(x)`: the count as
    /// unsigned bits just wide enough to hold the width counted over.
    fn count_leading(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 1)?;
        let b = self.to_bits(&args[0])?;
        let (bv, width) = if name == "CountLeadingSignBits" {
            if b.width < 2 {
                return self.invalid("`CountLeadingSignBits` needs at least two bits");
            }
            // Sign bits after the top one: leading zeros of x[w-1:1] XOR x[w-2:0].
            let hi = self.dom.extract(&b.bv, b.width, b.width - 1, 1);
            let lo = self.dom.extract(&b.bv, b.width, b.width - 2, 0);
            (self.dom.binary(BvBinOp::Xor, &hi, &lo, b.width - 1), b.width - 1)
        } else {
            (b.bv.clone(), b.width)
        };
        let out_width = 32 - width.leading_zeros();
        let mut r = self.dom.literal(&BigUint::from(width), out_width);
        for i in 0..width {
            let bit = self.dom.extract(&bv, width, i, i);
            let count = self.dom.literal(&BigUint::from(width - 1 - i), out_width);
            r = self.dom.ite(&bit, &count, &r, out_width);
        }
        Ok(Value::Bits(Bits { bv: r, width: out_width, signed: false }))
    }

    /// `GaloisInverse(x)`: the GF(2^8) inverse of the low byte, folded when
    /// the byte is a literal and a 255-entry lookup otherwise.
    fn galois_inverse(&mut self, name: &str, args: &[Value<D::Bv>]) -> R<Value<D::Bv>> {
        self.arity(name, args, 1)?;
        let b = self.to_bits(&args[0])?;
        let byte = resize(self.dom, &Bits { signed: false, ..b }, 8);
        if let Some(v) = self.dom.as_literal(&byte, 8) {
            let inv = gf2p8_inverse(v.to_u8().unwrap_or(0));
            let bv = self.dom.literal(&BigUint::from(inv), 8);
            return Ok(Value::Bits(Bits { bv, width: 8, signed: false }));
        }
        let mut table = self.dom.literal(&BigUint::zero(), 8);
        for x in 1..=255u8 {
            let lit = self.dom.literal(&BigUint::from(x), 8);
            let c = self.dom.compare(BvCmp::Eq, &byte, &lit, 8);
            let inv = self.dom.literal(&BigUint::from(gf2p8_inverse(x)), 8);
            table = self.dom.ite(&c, &inv, &table, 8);
        }
        Ok(Value::Bits(Bits { bv: table, width: 8, signed: false }))
    }

    fn saturate(&mut self, v: &Value<D::Bv>, width: u32, signed: bool) -> R<Value<D::Bv>> {
        let b = self.to_bits(v)?;
        let (lo, hi) = if signed {
            let half = BigInt::from(1u8) << (width - 1);
            (-half.clone(), half - 1)
        } else {
            (BigInt::zero(), (BigInt::from(1u8) << width) - 1)
        };
        let lo_b = Bits { bv: literal_of(self.dom, &lo, width + 1), width: width + 1, signed: true };
        let hi_b = Bits { bv: literal_of(self.dom, &hi, width + 1), width: width + 1, signed: true };
        let x = as_signed(self.dom, &b);
        let (xv, lov, w, _) = unify(self.dom, &x, &lo_b);
        let (_, hiv, _, _) = unify(self.dom, &x, &hi_b);
        let below = self.dom.compare(BvCmp::Slt, &xv, &lov, w);
        let above = self.dom.compare(BvCmp::Slt, &hiv, &xv, w);
        let clamped = self.dom.ite(&above, &hiv, &xv, w);
        let clamped = self.dom.ite(&below, &lov, &clamped, w);
        let bv = self.dom.extract(&clamped, w, width - 1, 0);
        Ok(Value::Bits(Bits { bv, width, signed }))
    }
}

#[cfg(test)]
mod tests {
    use super::gf2p8_inverse;

    #[test]
    fn gf_inverse_matches_known_values() {
        assert_eq!(gf2p8_inverse(0), 0);
        assert_eq!(gf2p8_inverse(1), 1);
        // 0x53 * 0xCA = 1 in the AES field.
        assert_eq!(gf2p8_inverse(0x53), 0xCA);
    }

    /// `ShiftInt(x, s, 127)` over a signed 8-bit amount: left when s >= 0,
    /// arithmetic right when negative, exact either way; concrete and Z3 agree.
    #[test]
    fn shift_int_is_exact_in_both_directions() {
        use crate::eval::{Concrete, Machine};
        use crate::sema::ir::{Arg, Expr, Place, Semantics, Stmt, StmtKind};
        use num_bigint::BigUint;
        let arg = |name: &str| Arg::scalar(name, 8);
        let call = |f: &str, args: Vec<Expr>| Expr::Call { func: f.into(), args };
        let shifted = call(
            "ShiftInt",
            vec![call("Signed", vec![Expr::var("x")]), call("Signed", vec![Expr::var("s")]), Expr::int(127)],
        );
        let sema = Semantics {
            name: "t".into(),
            args: vec![arg("x"), arg("s")],
            result: Arg { width: 32, ..arg("r") },
            functions: vec![],
            body: vec![Stmt {
                span: Default::default(),
                kind: StmtKind::Assign {
                    place: Place { var: "r".into(), range: None },
                    value: Expr::Slice {
                        base: Box::new(shifted),
                        hi: Box::new(Expr::int(31)),
                        lo: Box::new(Expr::int(0)),
                    },
                },
            }],
        };
        let run = |x: i8, s: i8| {
            let r = Machine::new(&mut Concrete, &sema).run(&[BigUint::from(x as u8), BigUint::from(s as u8)]).unwrap();
            u32::try_from(r).unwrap() as i32
        };
        assert_eq!(run(3, 4), 48);
        assert_eq!(run(-3, 20), -3 << 20);
        assert_eq!(run(-100, -3), -13, "floor(-100 / 8)");
        assert_eq!(run(100, -120), 0);
        assert!(crate::eval::typing::formula(&sema).is_ok());
    }
}
