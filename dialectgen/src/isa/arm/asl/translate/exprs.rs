//! Expressions: constant folding, IR for data-dependent values, and the
//! ASL helpers the execute blocks call.

use super::*;

fn pow2(w: u32) -> BigInt {
    BigInt::one() << w
}

fn bits_range(w: u32) -> Option<(BigInt, BigInt)> {
    Some((BigInt::zero(), pow2(w) - 1))
}

fn is_enum_name(n: &str) -> bool {
    n.contains('_') && n.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !n.starts_with("FPSR")
}

impl Translator<'_> {
    pub(super) fn expr(&mut self, e: &A, want: Option<u32>) -> R<PV> {
        match e {
            A::Num(n) => Ok(PV::K(Const::Int(n.clone()))),
            A::Bool(b) => Ok(PV::K(Const::Bool(*b))),
            A::Bits(s) => match parse_bits(s) {
                Some(c) => Ok(PV::K(c)),
                None => self.unsupported(format!("bit pattern '{s}' outside a comparison")),
            },
            A::Var(n) => match self.env.get(n) {
                Some(v) => Ok(v.clone()),
                None if is_enum_name(n) => Ok(PV::K(Const::Enum(n.clone()))),
                None => self.unsupported(format!("unknown variable `{n}`")),
            },
            A::Call(f, args) => self.call(f, args, want),
            A::Index(base, args) => self.index(base, args, want),
            A::Field(..) => self.unsupported("reads a system register field"),
            A::Unary(op, x) => {
                let v = self.expr(x, want)?;
                self.unary(op, v)
            }
            A::Binary(op, a, b) => self.binary(op, a, b, want),
            A::Cond(c, a, b) => match self.expr(c, None)? {
                PV::K(Const::Bool(t)) => self.choice(t, a, b, want),
                PV::K(o) => self.unsupported(format!("condition is {}", o.describe())),
                PV::S(c, _) => {
                    let (x, tx) = {
                        let v = self.expr(a, want)?;
                        self.to_ir(v)?
                    };
                    let (y, ty) = {
                        let v = self.expr(b, want)?;
                        self.to_ir(v)?
                    };
                    let t = match (tx, ty) {
                        (Ty::Bits(p), Ty::Bits(q)) if p == q => Ty::Bits(p),
                        (Ty::Int(p), Ty::Int(q)) => Ty::Int(range_union(&p, &q)),
                        (Ty::Bool, Ty::Bool) => Ty::Bool,
                        _ => return self.unsupported("branches of a conditional have different types"),
                    };
                    Ok(PV::S(E::Select { cond: Box::new(c), then: Box::new(x), otherwise: Box::new(y) }, t))
                }
            },
            A::In(x, pats) => {
                let mut any: Option<PV> = None;
                for p in pats {
                    let eq = self.compare_eq(x, p)?;
                    any = Some(match any {
                        None => eq,
                        Some(prev) => self.logical("||", prev, eq)?,
                    });
                }
                any.map_or_else(|| self.unsupported("empty IN set"), Ok)
            }
            A::Tuple(_) | A::Discard => self.unsupported("tuple in an expression"),
        }
    }

    /// `if flag then a else b` with the flag fixed by the encoding: when
    /// both arms depend on register contents and have one type, the flag
    /// stays in the IR as a number (so forms that differ only in it share a
    /// template); otherwise the chosen arm.
    fn choice(&mut self, flag: bool, a: &A, b: &A, want: Option<u32>) -> R<PV> {
        let mark = self.out.len();
        let fresh = self.fresh;
        if let (Ok(PV::S(x, tx)), Ok(PV::S(y, ty))) = (self.expr(a, want), self.expr(b, want)) {
            if tx == ty || matches!((&tx, &ty), (Ty::Int(_), Ty::Int(_))) {
                let t = match (tx, ty) {
                    (Ty::Int(p), Ty::Int(q)) => Ty::Int(range_union(&p, &q)),
                    (t, _) => t,
                };
                let sel = E::Select { cond: Box::new(int(u8::from(flag))), then: Box::new(x), otherwise: Box::new(y) };
                return Ok(PV::S(sel, t));
            }
        }
        self.out.truncate(mark);
        self.fresh = fresh;
        self.expr(if flag { a } else { b }, want)
    }

    fn unary(&mut self, op: &str, v: PV) -> R<PV> {
        Ok(match (op, v) {
            ("-", PV::K(Const::Int(i))) => PV::K(Const::Int(-i)),
            ("-", PV::S(e, Ty::Int(r))) => PV::S(E::Unary { op: UnOp::Neg, arg: Box::new(e) }, Ty::Int(range_neg(&r))),
            ("!", PV::K(Const::Bool(b))) => PV::K(Const::Bool(!b)),
            ("!", PV::S(e, Ty::Bool)) => PV::S(E::Unary { op: UnOp::LogicalNot, arg: Box::new(e) }, Ty::Bool),
            ("NOT", PV::K(Const::Bits { value, width })) => {
                PV::K(Const::bits(((BigUint::one() << width) - 1u8) ^ value, width))
            }
            ("NOT", PV::S(e, Ty::Bits(w))) => PV::S(zext(E::Unary { op: UnOp::Not, arg: Box::new(e) }, w), Ty::Bits(w)),
            (op, _) => return self.unsupported(format!("`{op}` on an operand of the wrong type")),
        })
    }

    /// `a == b`, where `b` may be a bit pattern with `x`.
    fn compare_eq(&mut self, a: &A, b: &A) -> R<PV> {
        let av = self.expr(a, None)?;
        if let A::Bits(p) = b {
            if p.contains('x') {
                return match av {
                    PV::K(Const::Bits { value, width }) => Ok(PV::K(Const::Bool(matches_pattern(&value, width, p)))),
                    PV::S(e, Ty::Bits(w)) if w as usize == p.len() => {
                        let mask: String = p.chars().map(|c| if c == 'x' { '0' } else { '1' }).collect();
                        let val: String = p.chars().map(|c| if c == '1' { '1' } else { '0' }).collect();
                        let m = BigInt::parse_bytes(mask.as_bytes(), 2).unwrap_or_default();
                        let v = BigInt::parse_bytes(val.as_bytes(), 2).unwrap_or_default();
                        Ok(PV::S(bin(BinOp::Eq, bin(BinOp::And, e, E::Int(m)), E::Int(v)), Ty::Bool))
                    }
                    _ => self.unsupported("bit pattern compared with a value of another width"),
                };
            }
        }
        let bv = self.expr(b, None)?;
        self.fold_or_build("==", av, bv)
    }

    fn logical(&mut self, op: &str, a: PV, b: PV) -> R<PV> {
        self.fold_or_build(op, a, b)
    }

    fn binary(&mut self, op: &'static str, a: &A, b: &A, want: Option<u32>) -> R<PV> {
        if op == "==" || op == "!=" {
            let eq = self.compare_eq(a, b)?;
            return if op == "==" { Ok(eq) } else { self.unary("!", eq) };
        }
        let av = self.expr(a, want)?;
        if op == "&&" && av == PV::K(Const::Bool(false)) {
            return Ok(av);
        }
        if op == "||" && av == PV::K(Const::Bool(true)) {
            return Ok(av);
        }
        let bv = self.expr(b, want)?;
        self.fold_or_build(op, av, bv)
    }

    fn fold_or_build(&mut self, op: &str, a: PV, b: PV) -> R<PV> {
        if let (PV::K(x), PV::K(y)) = (&a, &b) {
            return self.fold(op, x, y).map(PV::K);
        }
        let (x, tx) = self.to_ir(a)?;
        let (y, ty) = self.to_ir(b)?;
        let bits_w = match (&tx, &ty) {
            (Ty::Bits(p), Ty::Bits(q)) => Some((*p).max(*q)),
            (Ty::Bits(p), _) | (_, Ty::Bits(p)) => Some(*p),
            _ => None,
        };
        let int_range = |f: fn(&Option<(BigInt, BigInt)>, &Option<(BigInt, BigInt)>) -> Option<(BigInt, BigInt)>| match (
            &tx, &ty,
        ) {
            (Ty::Int(p), Ty::Int(q)) => f(p, q),
            _ => None,
        };
        let arith = |op: BinOp, r: Option<(BigInt, BigInt)>| -> PV {
            match bits_w {
                Some(w) => PV::S(zext(bin(op, x.clone(), y.clone()), w), Ty::Bits(w)),
                None => PV::S(bin(op, x.clone(), y.clone()), Ty::Int(r)),
            }
        };
        Ok(match op {
            "+" => arith(BinOp::Add, int_range(range_add)),
            "-" => {
                let r = match (&tx, &ty) {
                    (Ty::Int(p), Ty::Int(q)) => range_add(p, &range_neg(q)),
                    _ => None,
                };
                arith(BinOp::Sub, r)
            }
            "*" => arith(BinOp::Mul, int_range(range_mul)),
            "DIV" => PV::S(bin(BinOp::Div, x, y), Ty::Int(None)),
            "MOD" => PV::S(bin(BinOp::Rem, x, y), Ty::Int(None)),
            "AND" | "OR" | "EOR" => {
                let o = match op {
                    "AND" => BinOp::And,
                    "OR" => BinOp::Or,
                    _ => BinOp::Xor,
                };
                PV::S(bin(o, x, y), bits_w.map_or(Ty::Int(None), Ty::Bits))
            }
            "<" | "<=" | ">" | ">=" | "==" | "!=" => {
                let o = match op {
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    ">=" => BinOp::Ge,
                    "==" => BinOp::Eq,
                    _ => BinOp::Ne,
                };
                PV::S(bin(o, x, y), Ty::Bool)
            }
            "&&" => PV::S(bin(BinOp::LogicalAnd, x, y), Ty::Bool),
            "||" => PV::S(bin(BinOp::LogicalOr, x, y), Ty::Bool),
            ":" => {
                let (Ty::Bits(wa), Ty::Bits(wb)) = (&tx, &ty) else {
                    return self.unsupported("`:` needs two bit vectors");
                };
                PV::S(bin(BinOp::Or, bin(BinOp::Shl, x, int(*wb)), y), Ty::Bits(wa + wb))
            }
            "<<" | ">>" => return self.shift(op == "<<", x, tx, y, ty),
            _ => return self.unsupported(format!("operator `{op}` on register contents")),
        })
    }

    /// `x << s` or `x >> s` on integers (exact), the amount known or not.
    fn shift(&mut self, left: bool, x: E, tx: Ty, s: E, ts: Ty) -> R<PV> {
        let bits = match tx {
            Ty::Bits(w) => Some(w),
            _ => None,
        };
        let xr = match &tx {
            Ty::Int(r) => r.clone(),
            _ => None,
        };
        let out = |e: E, r: Option<(BigInt, BigInt)>| match bits {
            Some(w) => PV::S(zext(e, w), Ty::Bits(w)),
            None => PV::S(e, Ty::Int(r)),
        };
        if let E::Int(n) = &s {
            let amount = if left { n.clone() } else { -n.clone() };
            let r = xr.as_ref().and_then(|(lo, hi)| {
                let f = |v: &BigInt| {
                    if amount.is_negative() {
                        v >> (-&amount).to_usize().unwrap_or(0)
                    } else {
                        v << amount.to_usize().unwrap_or(0)
                    }
                };
                Some((f(lo), f(hi)))
            });
            let e = if amount.is_negative() {
                bin(BinOp::Shr, x, E::Int(-amount))
            } else {
                bin(BinOp::Shl, x, E::Int(amount))
            };
            return Ok(out(e, r));
        }
        let Ty::Int(Some((lo, hi))) = ts else {
            return self.unsupported("shift by an amount of unknown range");
        };
        // Left by `s` (right when negative): the IR's ShiftInt is exact given the largest left shift.
        let (lo, hi, s) = if left { (lo, hi, s) } else { (-hi, -lo, E::Unary { op: UnOp::Neg, arg: Box::new(s) }) };
        if hi <= BigInt::zero() && !left {
            // A right shift by a non-negative amount.
            let E::Unary { arg, .. } = s else { unreachable!() };
            return Ok(out(bin(BinOp::Shr, x, *arg), None));
        }
        let bound = hi.max(BigInt::zero());
        let _ = lo;
        Ok(out(call("ShiftInt", vec![x, s, E::Int(bound)]), None))
    }

    pub(super) fn fold(&self, op: &str, a: &Const, b: &Const) -> R<Const> {
        use Const::*;
        let bool_ = Const::Bool;
        Ok(match (op, a, b) {
            ("+", Int(x), Int(y)) => Int(x + y),
            ("-", Int(x), Int(y)) => Int(x - y),
            ("*", Int(x), Int(y)) => Int(x * y),
            ("DIV", Int(x), Int(y)) | ("/", Int(x), Int(y)) if !y.is_zero() => {
                Int(num_integer::Integer::div_floor(x, y))
            }
            ("MOD", Int(x), Int(y)) if !y.is_zero() => Int(num_integer::Integer::mod_floor(x, y)),
            ("^", Int(x), Int(y)) => Int(num_traits::pow(x.clone(), y.to_usize().unwrap_or(0))),
            ("<<", Int(x), Int(y)) => match y.to_i64() {
                Some(s) if s >= 0 => Int(x << s as usize),
                Some(s) => Int(x >> (-s) as usize),
                None => return self.unsupported("shift too large"),
            },
            (">>", Int(x), Int(y)) => match y.to_i64() {
                Some(s) if s >= 0 => Int(x >> s as usize),
                Some(s) => Int(x << (-s) as usize),
                None => return self.unsupported("shift too large"),
            },
            ("<", Int(x), Int(y)) => bool_(x < y),
            ("<=", Int(x), Int(y)) => bool_(x <= y),
            (">", Int(x), Int(y)) => bool_(x > y),
            (">=", Int(x), Int(y)) => bool_(x >= y),
            ("==", x, y) => bool_(self.const_eq(x, y)?),
            ("!=", x, y) => bool_(!self.const_eq(x, y)?),
            ("&&", Bool(x), Bool(y)) => bool_(*x && *y),
            ("||", Bool(x), Bool(y)) => bool_(*x || *y),
            ("AND", Bits { value: x, width }, Bits { value: y, .. }) => Const::bits(x & y, *width),
            ("OR", Bits { value: x, width }, Bits { value: y, .. }) => Const::bits(x | y, *width),
            ("EOR", Bits { value: x, width }, Bits { value: y, .. }) => Const::bits(x ^ y, *width),
            ("AND", Int(x), Int(y)) => Int(x & y),
            ("OR", Int(x), Int(y)) => Int(x | y),
            ("EOR", Int(x), Int(y)) => Int(x ^ y),
            (":", Bits { value: x, width: wx }, Bits { value: y, width: wy }) => {
                Const::bits((x.clone() << *wy) | y, wx + wy)
            }
            ("+" | "-", Bits { value: x, width }, other) | ("+" | "-", other, Bits { value: x, width }) => {
                let y = match other {
                    Bits { value, .. } => uint(value),
                    Int(i) => i.clone(),
                    _ => return self.unsupported("bad operand of `+`"),
                };
                let x = uint(x);
                let r = if op == "+" {
                    x + y
                } else if matches!(a, Bits { .. }) {
                    x - y
                } else {
                    y - x
                };
                Const::bits(to_bits(&r, *width), *width)
            }
            _ => return self.unsupported(format!("`{op}` on {} and {}", a.describe(), b.describe())),
        })
    }

    fn const_eq(&self, a: &Const, b: &Const) -> R<bool> {
        Ok(match (a, b) {
            (Const::Bits { value: x, width: wx }, Const::Bits { value: y, width: wy }) => {
                if wx != wy {
                    return self.unsupported(format!("comparing {wx}-bit and {wy}-bit values"));
                }
                x == y
            }
            (x, y) => x == y,
        })
    }

    fn index(&mut self, base: &A, args: &[IndexArg], want: Option<u32>) -> R<PV> {
        if let A::Var(f) = base {
            match f.as_str() {
                "V" => return self.read_register(false, args, want),
                "Vpart" => return self.read_register(true, args, want),
                "Elem" => {
                    let [IndexArg::One(x), IndexArg::One(idx), IndexArg::One(size)] = args else {
                        return self.unsupported("Elem[] needs a value, an index and a size");
                    };
                    let size = self.const_width(size)?;
                    let xv = self.expr(x, None)?;
                    let iv = self.expr(idx, None)?;
                    return self.slice_elems(xv, iv, size);
                }
                _ => {}
            }
        }
        let v = self.expr(base, None)?;
        match args {
            [IndexArg::Range(hi, lo)] => {
                let (h, l) = (self.expr(hi, None)?, self.expr(lo, None)?);
                match (h, l) {
                    (PV::K(Const::Int(h)), PV::K(Const::Int(l))) => self.slice_const(v, &h, &l),
                    (h, l) => {
                        let w = self.probe_width(hi, lo)?;
                        let (he, _) = self.to_ir(h)?;
                        let (le, _) = self.to_ir(l)?;
                        let (e, _) = self.to_ir(v)?;
                        Ok(PV::S(slice(e, he, le), Ty::Bits(w)))
                    }
                }
            }
            [IndexArg::One(i)] => match self.expr(i, None)? {
                PV::K(Const::Int(i)) => self.slice_const(v, &i, &i),
                iv => {
                    let (ie, _) = self.to_ir(iv)?;
                    let (e, _) = self.to_ir(v)?;
                    Ok(PV::S(E::Bit { base: Box::new(e), index: Box::new(ie) }, Ty::Bits(1)))
                }
            },
            [IndexArg::Width(lo, w)] => {
                let w = self.const_width(w)?;
                let lv = self.expr(lo, None)?;
                match lv {
                    PV::K(Const::Int(l)) => self.slice_const(v, &(&l + w - 1), &l),
                    _ => self.unsupported("bit range start depends on register contents"),
                }
            }
            _ => self.unsupported("unsupported indexing"),
        }
    }

    /// The width of `[hi:lo]` whose bounds move together with a
    /// data-dependent integer: `hi - lo + 1` with those integers at their
    /// lowest, checked at their highest.
    pub(super) fn probe_width(&mut self, hi: &A, lo: &A) -> R<u32> {
        let mut widths = Vec::new();
        for end in [0, 1] {
            let saved = self.env.clone();
            let out_len = self.out.len();
            for v in self.env.values_mut() {
                if let PV::S(_, Ty::Int(Some((a, b)))) = v {
                    *v = PV::K(Const::Int(if end == 0 { a.clone() } else { b.clone() }));
                }
            }
            let r = (self.expr(hi, None), self.expr(lo, None));
            self.env = saved;
            self.out.truncate(out_len);
            match r {
                (Ok(PV::K(Const::Int(h))), Ok(PV::K(Const::Int(l)))) => widths.push(h - l + 1u8),
                _ => return self.unsupported("bit range bounds depend on register contents"),
            }
        }
        match (widths[0].to_u32(), widths[0] == widths[1]) {
            (Some(w), true) if w > 0 => Ok(w),
            _ => self.unsupported("bit range width depends on register contents"),
        }
    }

    fn slice_const(&mut self, v: PV, hi: &BigInt, lo: &BigInt) -> R<PV> {
        let w = (hi - lo + 1u8).to_u32().filter(|w| *w > 0);
        let Some(w) = w else { return self.unsupported(format!("empty bit range [{hi}:{lo}]")) };
        match v {
            PV::K(Const::Bits { value, .. }) => Ok(PV::K(Const::bits(value >> lo.to_usize().unwrap_or(0), w))),
            PV::K(Const::Int(i)) => {
                let all = to_bits(&i, hi.to_u32().unwrap_or(0) + 1);
                Ok(PV::K(Const::bits(all >> lo.to_usize().unwrap_or(0), w)))
            }
            PV::K(c) => self.unsupported(format!("slice of {}", c.describe())),
            PV::S(e, _) => Ok(PV::S(slice(e, E::Int(hi.clone()), E::Int(lo.clone())), Ty::Bits(w))),
        }
    }

    /// `Elem[x, idx, size]`.
    pub(super) fn slice_elems(&mut self, x: PV, idx: PV, size: u32) -> R<PV> {
        if let PV::K(Const::Int(i)) = &idx {
            let lo = i * size;
            return self.slice_const(x, &(&lo + size - 1), &lo);
        }
        let (xe, _) = self.to_ir(x)?;
        let (ie, _) = self.to_ir(idx)?;
        let lo = bin(BinOp::Mul, ie, int(size));
        let hi = bin(BinOp::Add, lo.clone(), int(size - 1));
        Ok(PV::S(slice(xe, hi, lo), Ty::Bits(size)))
    }

    fn width_of(&self, v: &PV) -> Option<u32> {
        match v {
            PV::K(Const::Bits { width, .. }) => Some(*width),
            PV::S(_, Ty::Bits(w)) => Some(*w),
            _ => None,
        }
    }

    fn bits_arg(&mut self, a: &A, f: &str) -> R<(PV, u32)> {
        let v = self.expr(a, None)?;
        match self.width_of(&v) {
            Some(w) => Ok((v, w)),
            None => self.unsupported(format!("`{f}` needs a bit vector")),
        }
    }

    fn bool_arg(&mut self, a: &A, f: &str) -> R<bool> {
        match self.expr(a, None)? {
            PV::K(Const::Bool(b)) => Ok(b),
            _ => self.unsupported(format!("`{f}` needs a constant boolean")),
        }
    }

    fn call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
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
    fn arity(&self, f: &str, args: &[A], n: usize) -> R<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(TranslateError::Unsupported { span: self.span, message: format!("`{f}` takes {n} arguments") })
        }
    }

    /// `Int(x, unsigned)`: the bits read as an integer.
    fn int_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn fill_call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
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
    fn extend_call(&mut self, f: &str, args: &[A], want: Option<u32>) -> R<PV> {
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
    fn set_bit_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn min_max_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn abs_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn count_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn reduce_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
    fn all_same_call(&mut self, f: &str, args: &[A]) -> R<PV> {
        self.arity(f, args, 1)?;
        let (v, w) = self.bits_arg(&args[0], f)?;
        let target = if f == "IsZero" { BigUint::zero() } else { (BigUint::one() << w) - 1u8 };
        match v {
            PV::K(Const::Bits { value, .. }) => Ok(PV::K(Const::Bool(value == target))),
            PV::S(e, _) => Ok(PV::S(bin(BinOp::Eq, e, E::Int(BigInt::from(target))), Ty::Bool)),
            _ => unreachable!("bits_arg gives bits"),
        }
    }

    fn to_int(&mut self, v: PV, w: u32, signed: bool) -> R<PV> {
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

    fn bit_shift(&mut self, f: &str, v: PV, w: u32, s: PV) -> R<PV> {
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
    fn reduce(&mut self, op: &str, v: PV, w: u32, esize: u32) -> R<PV> {
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
    fn inline_call(&mut self, f: &str, args: &[A]) -> R<PV> {
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
