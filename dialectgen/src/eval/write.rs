//! Assignments: writing bit ranges, including ranges whose position
//! depends on input.

use super::domain::{BvBinOp, Domain};
use super::machine::{Env, Flow, Machine, Var, R};
use super::value::{resize, Bits, Value};
use crate::sema::ir::{BinOp, Expr, Place, UnOp};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};

impl<D: Domain> Machine<'_, D> {
    /// `dst[hi:lo] := src[hi:lo]` or `dst[hi:lo] := 0` with input-dependent
    /// bounds (the tail of a compress): a blend under a mask of bits
    /// `lo..=hi`. `None` when the statement is not of that form or its
    /// bounds are known.
    pub(crate) fn copy_range(&mut self, place: &Place, value: &Expr, env: &mut Env<D::Bv>) -> R<Option<Flow<D::Bv>>> {
        let Some((hi, lo)) = &place.range else { return Ok(None) };
        // The source: the same range of another variable, or zero.
        let src = match value {
            Expr::Slice { base, hi: h2, lo: l2 } if hi == h2.as_ref() && lo == l2.as_ref() => match base.as_ref() {
                Expr::Var(src) => Some(src),
                _ => return Ok(None),
            },
            Expr::Int(z) if z.is_zero() => None,
            _ => return Ok(None),
        };
        let (hv, lv) = (self.eval(hi, env)?, self.eval(lo, env)?);
        if self.literal_int(&hv)?.is_some() && self.literal_int(&lv)?.is_some() {
            return Ok(None);
        }
        let Some(dst_var) = env.get(&place.var).cloned() else { return Ok(None) };
        let old = self.to_bits(&dst_var.value)?;
        let width = old.width;
        let src_bv = match src {
            Some(src) => {
                let Some(src_var) = env.get(src).cloned() else { return Ok(None) };
                let src_bits = self.to_bits(&src_var.value)?;
                resize(self.dom, &Bits { signed: false, ..src_bits }, width)
            }
            None => self.dom.literal(&BigUint::zero(), width),
        };
        let ones =
            Bits { bv: self.dom.literal(&((BigUint::one() << width) - BigUint::one()), width), width, signed: false };
        let lo_bits = self.to_bits(&lv)?;
        let low_mask = self.shift_within(&ones, &lo_bits, BvBinOp::Shl);
        let top = self.binary(BinOp::Sub, Value::Int(BigInt::from(width) - 1), hv)?;
        let top_bits = self.to_bits(&top)?;
        let high_mask = self.shift_within(&ones, &top_bits, BvBinOp::LShr);
        let mask = self.dom.binary(BvBinOp::And, &low_mask, &high_mask, width);
        let taken = self.dom.binary(BvBinOp::And, &src_bv, &mask, width);
        let bv = self.blend(&old.bv, &taken, &mask, width);
        self.note_write(&place.var, None);
        env.insert(
            place.var.clone(),
            Var { value: Value::Bits(Bits { bv, width, signed: old.signed }), elem: dst_var.elem },
        );
        Ok(Some(Flow::Normal))
    }

    /// `place := v`: replaces the variable, or writes a bit range of it
    /// (growing it when the range reaches past its width).
    pub(crate) fn assign(&mut self, place: &Place, v: Value<D::Bv>, env: &mut Env<D::Bv>) -> R<()> {
        let Some((hi, lo)) = &place.range else {
            let elem = None;
            self.note_write(&place.var, None);
            env.insert(place.var.clone(), Var { value: v, elem });
            return Ok(());
        };
        let hi_v = self.eval(hi, env)?;
        let lo_v = self.eval(lo, env)?;
        let new = self.to_bits(&v)?;
        let existing = match env.get(&place.var) {
            Some(var) => Some((self.to_bits(&var.value)?, var.elem)),
            None => None,
        };
        let (hi_i, lo_i) = (self.literal_int(&hi_v)?, self.literal_int(&lo_v)?);
        match (hi_i, lo_i) {
            (Some(hi), Some(lo)) => {
                if hi < lo {
                    return Ok(()); // empty range, e.g. `dst[MAX:512] := 0`
                }
                if lo.is_negative() {
                    return self.invalid(format!("bit range [{hi}:{lo}] of `{}` is negative", place.var));
                }
                let (hi, lo) = (self.small(&hi)?, self.small(&lo)?);
                let (old, elem) = match existing {
                    Some(e) => e,
                    None => {
                        (Bits { bv: self.dom.literal(&BigUint::zero(), hi + 1), width: hi + 1, signed: false }, None)
                    }
                };
                let width = old.width.max(hi + 1);
                let old_bv = resize(self.dom, &old, width);
                let field = resize(self.dom, &new, hi - lo + 1);
                let mut bv = field;
                let mut w = hi - lo + 1;
                if lo > 0 {
                    let low = self.dom.extract(&old_bv, width, lo - 1, 0);
                    bv = self.dom.concat(&bv, w, &low, lo);
                    w += lo;
                }
                if hi + 1 < width {
                    let high = self.dom.extract(&old_bv, width, width - 1, hi + 1);
                    bv = self.dom.concat(&high, width - hi - 1, &bv, w);
                }
                self.note_write(&place.var, Some((hi, lo)));
                let signed = if lo == 0 && hi + 1 == width { new.signed } else { old.signed };
                env.insert(place.var.clone(), Var { value: Value::Bits(Bits { bv, width, signed }), elem });
                Ok(())
            }
            _ => {
                let Some((old, elem)) = existing else {
                    return self.symbolic(format!("input-dependent write to new variable `{}`", place.var));
                };
                let field_width = self.dynamic_width(hi, lo, env)?;
                let width = old.width;
                let field = resize(self.dom, &new, field_width);
                let field = Bits { bv: field, width: field_width, signed: false };
                let field = Bits { bv: resize(self.dom, &field, width), width, signed: false };
                let field_mask = Bits {
                    bv: self.dom.literal(&((BigUint::one() << field_width) - BigUint::one()), width),
                    width,
                    signed: false,
                };
                let lo_b = self.to_bits(&lo_v)?;
                let shifted_mask = self.shift_within(&field_mask, &lo_b, BvBinOp::Shl);
                let shifted_field = self.shift_within(&field, &lo_b, BvBinOp::Shl);
                let bv = self.blend(&old.bv, &shifted_field, &shifted_mask, width);
                self.note_write(&place.var, None);
                env.insert(place.var.clone(), Var { value: Value::Bits(Bits { bv, width, signed: old.signed }), elem });
                Ok(())
            }
        }
    }

    /// The width of `[hi:lo]` when the bounds depend on input but their
    /// difference does not: `a[id+31:id]` is 32 bits wide whatever `id` is.
    /// Arithmetic is exact, so the difference of the two linear forms decides.
    pub(crate) fn dynamic_width(&mut self, hi: &Expr, lo: &Expr, env: &Env<D::Bv>) -> R<u32> {
        let diff = match (self.linear(hi, env), self.linear(lo, env)) {
            (Some(h), Some(l)) => h.minus(&l).constant(),
            _ => None,
        };
        match diff {
            Some(d) if !d.is_negative() => Ok(self.small(&d)? + 1),
            _ => self.symbolic("bit range whose width depends on input"),
        }
    }

    /// `e` as a linear combination of opaque sub-expressions, when it is one.
    fn linear(&mut self, e: &Expr, env: &Env<D::Bv>) -> Option<super::linear::LinearForm> {
        use super::linear::LinearForm;
        Some(match e {
            Expr::Int(i) => LinearForm::constant_of(i.clone()),
            Expr::Var(name) => match env.get(name).map(|v| &v.value) {
                Some(Value::Int(i)) => LinearForm::constant_of(i.clone()),
                _ => LinearForm::atom(name.to_string()),
            },
            Expr::Binary { op: BinOp::Add, lhs, rhs } => self.linear(lhs, env)?.plus(&self.linear(rhs, env)?),
            Expr::Binary { op: BinOp::Sub, lhs, rhs } => self.linear(lhs, env)?.minus(&self.linear(rhs, env)?),
            Expr::Binary { op: BinOp::Mul, lhs, rhs } => {
                let (a, b) = (self.linear(lhs, env)?, self.linear(rhs, env)?);
                match (a.constant(), b.constant()) {
                    (Some(k), _) => b.scaled(&k),
                    (_, Some(k)) => a.scaled(&k),
                    _ => LinearForm::atom(crate::sema::print::expr_to_string(e)),
                }
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.linear(arg, env)?.scaled(&BigInt::from(-1)),
            other => LinearForm::atom(crate::sema::print::expr_to_string(other)),
        })
    }
}
