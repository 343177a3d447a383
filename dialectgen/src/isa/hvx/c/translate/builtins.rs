//! The IR's built-ins as the macro table's bodies call them: sizes,
//! saturation, extension of the low bits.

use super::super::ast::{CBinary, CExpr, CExprKind};
use super::super::ctype::{CType, INT, LLONG};
use super::constant::const_value;
use super::{call, lane_type, Translator, Typed, T};
use crate::sema::ir::{Expr, Span};
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};

impl Translator {
    /// The IR's built-ins, as the macro table's bodies call them.
    pub(super) fn builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        match name {
            "sizeof" => self.sizeof_builtin(span, name, args),
            "Saturate" | "SaturateU" => self.saturate_builtin(span, name, args),
            "ZeroExtendLow" | "SignExtendLow" => self.extend_low_builtin(span, name, args),
            "CountLeadingZeros" => {
                self.builtin_arity(span, name, args, 1)?;
                let x = self.expr(&args[0])?;
                if x.ty.signed {
                    return self.fail(span, "`CountLeadingZeros` needs an unsigned operand (cast it)");
                }
                let w = x.ty.width;
                let x = self.exact_width(x, CType::new(w, false));
                Ok(Typed { ir: call(name, vec![x.ir]), ty: INT, lo: BigInt::zero(), hi: BigInt::from(w) })
            }
            "PopCount" => {
                self.builtin_arity(span, name, args, 1)?;
                let x = self.expr(&args[0])?;
                let w = x.ty.width;
                let x = self.exact_width(x, CType::new(w, false));
                Ok(Typed { ir: call(name, vec![x.ir]), ty: INT, lo: BigInt::zero(), hi: BigInt::from(w) })
            }
            _ => self.fail(span, format!("unknown function `{name}`")),
        }
    }

    /// Fails unless the built-in `name` has `n` arguments.
    pub(super) fn builtin_arity(&self, span: Span, name: &str, args: &[CExpr], n: usize) -> T<()> {
        if args.len() == n {
            Ok(())
        } else {
            self.fail(span, format!("`{name}` takes {n} arguments, got {}", args.len()))
        }
    }

    /// A built-in's constant width argument, 1 to 64.
    pub(super) fn builtin_width(&self, name: &str, e: &CExpr) -> T<u32> {
        match const_value(e).and_then(|w| w.to_u32()) {
            Some(w) if (1..=64).contains(&w) => Ok(w),
            _ => self.fail(e.span, format!("`{name}` needs a constant width")),
        }
    }

    /// `sizeof(R.t[0])`: the bytes of a lane type.
    pub(super) fn sizeof_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 1)?;
        let lane = match &args[0].kind {
            CExprKind::Index(base, _) => match &base.kind {
                CExprKind::Member(_, field) => lane_type(field),
                _ => None,
            },
            _ => None,
        };
        match lane {
            Some(t) => Ok(self.literal(BigInt::from(t.width / 8), CType::new(64, false))),
            None => self.fail(span, "`sizeof` of something other than a lane"),
        }
    }

    /// `Saturate(x, N)` or `SaturateU(x, N)`: `x` saturated to N bits, in the
    /// narrowest of `int`, `long long` and `unsigned long long` holding them.
    pub(super) fn saturate_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 2)?;
        let w = self.builtin_width(name, &args[1])?;
        let x = self.expr(&args[0])?;
        let sat = CType::new(w, name == "Saturate");
        let ty = [INT, LLONG, CType::new(64, false)]
            .into_iter()
            .find(|t| t.min() <= sat.min() && sat.max() <= t.max())
            .unwrap_or(LLONG);
        // One built-in for both: signed and unsigned saturation differ in a number.
        let ir = call("SaturateAs", vec![x.ir, Expr::int(i64::from(w)), Expr::int(i64::from(name == "SaturateU"))]);
        Ok(Typed { ir, ty, lo: sat.min(), hi: sat.max() })
    }

    /// `ZeroExtendLow(N, x)` or `SignExtendLow(N, x)`: the low N bits of a
    /// value, zero- or sign-extended to `long long` (`fZXTN`, `fSXTN`); the
    /// value itself when it already lies in that range, so that an operation
    /// reads the same whether it names its extension or its operand type does.
    pub(super) fn extend_low_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 2)?;
        let n = self.builtin_width(name, &args[0])?;
        let x = self.expr(&args[1])?;
        let signed = name == "SignExtendLow";
        let ty = CType::common(x.ty, LLONG);
        let lane = CType::new(n, signed);
        if lane.min() <= x.lo && x.hi <= lane.max() {
            return Ok(self.convert(x, ty));
        }
        let mask = self.literal((BigInt::one() << n) - 1, LLONG);
        let low = self.binary(span, CBinary::BitAnd, x, mask)?;
        if !signed {
            return Ok(low);
        }
        let top = self.literal(BigInt::one() << (n - 1), LLONG);
        let flipped = self.binary(span, CBinary::BitXor, low, top.clone())?;
        self.binary(span, CBinary::Sub, flipped, top)
    }
}
