//! The ASL library functions the execute blocks call: integer and bit
//! conversions, fills and extensions, minimum and maximum, counts,
//! reductions, saturation, and the helpers inlined from their ASL.

use super::*;

impl Translator<'_> {
    pub(super) fn call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
        match f {
            "UInt" | "SInt" => {
                self.arity(f, args, 1)?;
                let (v, w) = self.bits_arg(&args[0], f)?;
                self.to_int(v, w, f == "SInt")
            }
            "Int" => self.int_call(f, args),
            "Zeros" | "Ones" => self.fill_call(f, args, want),
            "ZeroExtend" | "SignExtend" => self.extend_call(f, args, want),
            "HighestSetBit" | "LowestSetBit" => self.set_bit_call(f, args),
            "Min" | "Max" => self.min_max_call(f, args),
            "Abs" => self.abs_call(f, args),
            "BitCount" | "CountLeadingZeroBits" | "CountLeadingSignBits" => self.count_call(f, args),
            "LSL" | "LSR" | "ROL" | "ROR" => {
                self.arity(f, args, 2)?;
                let (v, w) = self.bits_arg(&args[0], f)?;
                let s = self.expr(&args[1], None)?;
                self.bit_shift(f, v, w, s)
            }
            "Reduce" => self.reduce_call(f, args),
            "SatQ" | "SignedSatQ" | "UnsignedSatQ" => self.sat_call(f, args).map(|(v, _)| v),
            "IsZero" | "IsOnes" => self.all_same_call(f, args),
            // Architecture extensions: the modelled machine has them all.
            _ if f.starts_with("Have") && f.ends_with("Ext") && args.is_empty() => Ok(PV::K(Const::Bool(true))),
            _ => self.inline_call(f, args),
        }
    }

    /// Fails unless the call to `f` has `n` arguments.
    pub(super) fn arity(&self, f: &str, args: &[A], n: usize) -> R<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(TranslateError::Unsupported { span: self.span, message: format!("`{f}` takes {n} arguments") })
        }
    }

    /// `Int(x, unsigned)`: the bits read as an integer.
    pub(super) fn int_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 2)?;
        let (v, w) = self.bits_arg(&args[0], f)?;
        let unsigned = self.bool_arg(&args[1], f)?;
        match v {
            // The signedness stays a number, so that signed and unsigned
            // forms of an instruction share one template.
            PV::S(e, _) => {
                let range = if unsigned {
                    bits_range(w)
                } else {
                    let half = pow2(w - 1);
                    Some((-half.clone(), half - 1))
                };
                Ok(PV::S(call("AsInteger", vec![e, int(u8::from(unsigned))]), Ty::Int(range)))
            }
            k => self.to_int(k, w, !unsigned),
        }
    }

    /// `Zeros(n)` or `Ones(n)`, the width given or wanted here.
    pub(super) fn fill_call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
        let w = match args.first() {
            Some(a) => self.const_width(a)?,
            None => match want {
                Some(w) => w,
                None => return self.unsupported(format!("`{f}()` with no width here")),
            },
        };
        let v = if f == "Ones" { (BigUint::one() << w) - 1u8 } else { BigUint::zero() };
        Ok(PV::K(Const::Bits { value: v, width: w }))
    }

    /// `ZeroExtend(x, n)` or `SignExtend(x, n)`, the width given or wanted here.
    pub(super) fn extend_call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
        let (v, w) = self.bits_arg(&args[0], f)?;
        let n = match args.get(1) {
            Some(a) => self.const_width(a)?,
            None => want.map_or_else(|| self.unsupported(format!("`{f}` with no width here")), Ok)?,
        };
        let signed = f == "SignExtend";
        match v {
            PV::K(Const::Bits { value, width }) => {
                let i = if signed { sint(&value, width) } else { uint(&value) };
                Ok(PV::K(Const::bits(to_bits(&i, n), n)))
            }
            PV::S(e, _) if signed => {
                let _ = w;
                Ok(PV::S(zext(call("SignExtend", vec![e, int(n)]), n), Ty::Bits(n)))
            }
            PV::S(e, _) => Ok(PV::S(zext(e, n), Ty::Bits(n))),
            PV::K(_) => self.unsupported(format!("`{f}` of a non-bits constant")),
        }
    }

    /// `HighestSetBit(x)` or `LowestSetBit(x)` of a constant (-1 when none is set).
    pub(super) fn set_bit_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 1)?;
        match self.expr(&args[0], None)? {
            PV::K(Const::Bits { value, width }) => {
                let bits: Vec<u32> = (0..width).filter(|i| value.bit(u64::from(*i))).collect();
                let r = if f == "HighestSetBit" { bits.last() } else { bits.first() };
                Ok(PV::K(Const::Int(r.map_or(BigInt::from(-1), |b| BigInt::from(*b)))))
            }
            _ => self.unsupported(format!("`{f}` of register contents")),
        }
    }

    /// `Min(a, b)` or `Max(a, b)` of integers.
    pub(super) fn min_max_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 2)?;
        let a = self.expr(&args[0], None)?;
        let b = self.expr(&args[1], None)?;
        if let (PV::K(Const::Int(x)), PV::K(Const::Int(y))) = (&a, &b) {
            return Ok(PV::K(Const::Int(if f == "Min" { x.min(y).clone() } else { x.max(y).clone() })));
        }
        let (x, tx) = self.to_ir(a)?;
        let (y, ty) = self.to_ir(b)?;
        let r = match (tx, ty) {
            (Ty::Int(p), Ty::Int(q)) => range_union(&p, &q),
            _ => return self.unsupported(format!("`{f}` needs integers")),
        };
        Ok(PV::S(call(f, vec![x, y]), Ty::Int(r)))
    }

    /// `Abs(x)` of an integer.
    pub(super) fn abs_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 1)?;
        match self.expr(&args[0], None)? {
            PV::K(Const::Int(i)) => Ok(PV::K(Const::Int(i.abs()))),
            PV::S(e, Ty::Int(r)) => {
                let r = r.map(|(lo, hi)| (BigInt::zero(), lo.abs().max(hi.abs())));
                Ok(PV::S(call("Abs", vec![e]), Ty::Int(r)))
            }
            _ => self.unsupported("`Abs` needs an integer"),
        }
    }

    /// `BitCount(x)`, `CountLeadingZeroBits(x)` or `CountLeadingSignBits(x)`:
    /// an integer from 0 to the width.
    pub(super) fn count_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 1)?;
        let (v, w) = self.bits_arg(&args[0], f)?;
        let (e, _) = self.to_ir(v)?;
        let ir = match f {
            "BitCount" => "PopCount",
            "CountLeadingZeroBits" => "CountLeadingZeros",
            _ => "CountLeadingSignBits",
        };
        Ok(PV::S(call(ir, vec![e]), Ty::Int(Some((BigInt::zero(), BigInt::from(w))))))
    }

    /// `Reduce(op, x, esize)`: the elements of `x` combined by a constant operation.
    pub(super) fn reduce_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 3)?;
        let op = match self.expr(&args[0], None)? {
            PV::K(Const::Enum(e)) => e,
            _ => return self.unsupported("`Reduce` needs a constant operation"),
        };
        let (v, w) = self.bits_arg(&args[1], f)?;
        let esize = self.const_width(&args[2])?;
        self.reduce(&op, v, w, esize)
    }

    /// `IsZero(x)` or `IsOnes(x)`: whether every bit is 0, or every bit is 1.
    pub(super) fn all_same_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 1)?;
        let (v, w) = self.bits_arg(&args[0], f)?;
        let target = if f == "IsZero" { BigUint::zero() } else { (BigUint::one() << w) - 1u8 };
        match v {
            PV::K(Const::Bits { value, .. }) => Ok(PV::K(Const::Bool(value == target))),
            PV::S(e, _) => Ok(PV::S(bin(BinOp::Eq, e, E::Int(BigInt::from(target))), Ty::Bool)),
            _ => unreachable!("bits_arg gives bits"),
        }
    }

    pub(super) fn to_int(&mut self, v: PV, w: u32, signed: bool) -> R<PV> {
        match v {
            PV::K(Const::Bits { value, width }) => {
                Ok(PV::K(Const::Int(if signed { sint(&value, width) } else { uint(&value) })))
            }
            PV::S(e, _) if signed => {
                let half = pow2(w - 1);
                Ok(PV::S(call("Signed", vec![e]), Ty::Int(Some((-half.clone(), half - 1)))))
            }
            PV::S(e, _) => Ok(PV::S(e, Ty::Int(bits_range(w)))),
            PV::K(c) => self.unsupported(format!("integer of {}", c.describe())),
        }
    }

    pub(super) fn bit_shift(&mut self, f: &str, v: PV, w: u32, s: PV) -> R<PV> {
        if let (PV::K(Const::Bits { value, .. }), PV::K(Const::Int(n))) = (&v, &s) {
            let n = n.to_u32().unwrap_or(u32::MAX).min(4096);
            let mask = (BigUint::one() << w) - 1u8;
            let r = match f {
                "LSL" => (value << n) & &mask,
                "LSR" => value >> n,
                "ROL" => ((value << (n % w)) | (value >> ((w - n % w) % w))) & &mask,
                _ => ((value >> (n % w)) | (value << ((w - n % w) % w))) & &mask,
            };
            return Ok(PV::K(Const::bits(r, w)));
        }
        let (x, _) = self.to_ir(v)?;
        match (f, s) {
            ("LSL", PV::K(Const::Int(n))) => Ok(PV::S(zext(bin(BinOp::Shl, x, E::Int(n)), w), Ty::Bits(w))),
            ("LSR", PV::K(Const::Int(n))) => Ok(PV::S(bin(BinOp::Shr, x, E::Int(n)), Ty::Bits(w))),
            ("ROL" | "ROR", PV::K(Const::Int(n))) => {
                let n = n.to_u32().unwrap_or(0) % w;
                let l = if f == "ROL" { n } else { (w - n) % w };
                if l == 0 {
                    return Ok(PV::S(x, Ty::Bits(w)));
                }
                let e = bin(BinOp::Or, bin(BinOp::Shl, x.clone(), int(l)), bin(BinOp::Shr, x, int(w - l)));
                Ok(PV::S(zext(e, w), Ty::Bits(w)))
            }
            ("ROL" | "ROR", PV::S(n, Ty::Int(Some((lo, hi))))) if !lo.is_negative() && hi < BigInt::from(w) => {
                // Rotate right by r = n (ROR) or w - n (ROL): x >> r, with the
                // bits shifted out coming back in at the top.
                let r = if f == "ROR" { n } else { bin(BinOp::Sub, int(w), n) };
                let back = call("ShiftInt", vec![x.clone(), bin(BinOp::Sub, int(w), r.clone()), int(w)]);
                let e = bin(BinOp::Or, bin(BinOp::Shr, x, r), back);
                Ok(PV::S(zext(e, w), Ty::Bits(w)))
            }
            ("LSL", PV::S(n, Ty::Int(Some((lo, hi))))) if !lo.is_negative() => {
                Ok(PV::S(zext(call("ShiftInt", vec![x, n, E::Int(hi)]), w), Ty::Bits(w)))
            }
            ("LSR", PV::S(n, Ty::Int(Some((lo, _))))) if !lo.is_negative() => {
                Ok(PV::S(bin(BinOp::Shr, x, n), Ty::Bits(w)))
            }
            _ => self.unsupported(format!("`{f}` by an amount of unknown range")),
        }
    }

    /// `Reduce(op, x, esize)`: the elements combined in order (the
    /// operations are associative and commutative, so the tree ASL uses
    /// gives the same value).
    pub(super) fn reduce(&mut self, op: &str, v: PV, w: u32, esize: u32) -> R<PV> {
        let n = w / esize;
        if n == 0 || w % esize != 0 {
            return self.unsupported("Reduce over a partial element");
        }
        let (x, _) = self.to_ir(v)?;
        self.fresh += 1;
        let acc = format!("{}reduce{}", self.prefix, self.fresh);
        let i = format!("{}ri{}", self.prefix, self.fresh);
        let elem = |idx: E| {
            slice(
                x.clone(),
                bin(BinOp::Add, bin(BinOp::Mul, idx.clone(), int(esize)), int(esize - 1)),
                bin(BinOp::Mul, idx, int(esize)),
            )
        };
        let a = E::var(&acc);
        let next = match op {
            "ReduceOp_ADD" => zext(bin(BinOp::Add, a.clone(), elem(E::var(&i))), esize),
            "ReduceOp_SMAX" | "ReduceOp_SMIN" => {
                let m = if op == "ReduceOp_SMAX" { "Max" } else { "Min" };
                zext(call(m, vec![call("Signed", vec![a.clone()]), call("Signed", vec![elem(E::var(&i))])]), esize)
            }
            "ReduceOp_UMAX" | "ReduceOp_UMIN" => {
                let m = if op == "ReduceOp_UMAX" { "Max" } else { "Min" };
                zext(call(m, vec![a.clone(), elem(E::var(&i))]), esize)
            }
            _ => return self.unsupported(format!("Reduce with {op}")),
        };
        self.emit(Place { var: acc.clone(), range: None }, elem(int(0)));
        if n > 1 {
            let body = vec![Stmt {
                span: self.span,
                kind: StmtKind::Assign { place: Place { var: acc.clone(), range: None }, value: next },
            }];
            self.out.push(Stmt {
                span: self.span,
                kind: StmtKind::For { var: i, from: int(1), to: int(n - 1), descending: false, body },
            });
        }
        Ok(PV::S(a, Ty::Bits(esize)))
    }

    /// `SatQ(i, N, unsigned)`, `SignedSatQ(i, N)`, `UnsignedSatQ(i, N)`:
    /// the saturated value, and the saturation flag (not modelled).
    pub(super) fn sat_call(&mut self, f: &str, args: &[A]) -> R<(PV, ())> {
        let (i, n, unsigned) = match (f, args) {
            ("SatQ", [i, n, u]) => (i, n, self.bool_arg(u, f)?),
            ("SignedSatQ", [i, n]) => (i, n, false),
            ("UnsignedSatQ", [i, n]) => (i, n, true),
            _ => return self.unsupported(format!("`{f}` with these arguments")),
        };
        let n = self.const_width(n)?;
        let v = self.expr(i, None)?;
        if let PV::K(Const::Int(x)) = &v {
            let (lo, hi) = if unsigned { (BigInt::zero(), pow2(n) - 1) } else { (-pow2(n - 1), pow2(n - 1) - 1) };
            let c = x.clone().max(lo).min(hi);
            return Ok((PV::K(Const::bits(to_bits(&c, n), n)), ()));
        }
        let (e, _) = self.to_ir(v)?;
        let s = call("SaturateAs", vec![e, int(n), int(u8::from(unsigned))]);
        Ok((PV::S(zext(s, n), Ty::Bits(n)), ()))
    }

    /// A function of the shared pseudocode library, inlined: its locals get
    /// IR names of their own, and its one `return` (the last statement) is its value.
    pub(super) fn inline_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        let Some(lib) = self.lib else { return self.unsupported(format!("unknown function `{f}`")) };
        let def = match lib.function(f) {
            Ok(Some(d)) => d,
            Ok(None) => return self.unsupported(format!("unknown function `{f}`")),
            Err(e) => return self.unsupported(format!("function `{f}`: {e}")),
        };
        if def.params.len() != args.len() {
            return self.unsupported(format!("`{f}` takes {} arguments", def.params.len()));
        }
        let Some((last, body)) = def.body.split_last() else { return self.unsupported(format!("`{f}` is empty")) };
        let K::Return(Some(ret)) = &last.kind else {
            return self.unsupported(format!("`{f}` does not end in its only return"));
        };
        let mut values = Vec::new();
        for a in args {
            values.push(self.expr(a, None)?);
        }
        self.fresh += 1;
        let prefix = format!("{}{}{}_", self.prefix, f.to_lowercase(), self.fresh);
        let saved = (
            std::mem::take(&mut self.env),
            std::mem::take(&mut self.declared),
            std::mem::take(&mut self.foldable),
            std::mem::replace(&mut self.prefix, prefix),
        );
        let span = self.span;
        for ((ty, name), v) in def.params.iter().zip(values) {
            if let (Type::Bits(A::Var(n)), Some(w)) = (ty, self.width_of(&v)) {
                self.env.insert(n.clone(), PV::K(Const::Int(BigInt::from(w))));
            }
            self.env.insert(name.clone(), v);
        }
        self.foldable = foldable_locals(body);
        let result = self.block(body).and_then(|_| {
            self.span = last.span;
            let want = match &def.ret {
                Type::Bits(w) => self.const_width(w).ok(),
                _ => None,
            };
            self.expr(ret, want)
        });
        self.env = saved.0;
        self.declared = saved.1;
        self.foldable = saved.2;
        self.prefix = saved.3;
        self.span = span;
        // A fault inside the library function: reported at the call, naming
        // the library position.
        result.map_err(|e| TranslateError::Unsupported {
            span,
            message: format!(
                "in `{f}` at {}:{}: {}",
                lib.path.display(),
                e.span(),
                e.to_string().split_once(": ").map_or(String::new(), |(_, m)| m.to_string())
            ),
        })
    }
}
