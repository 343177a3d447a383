//! Expressions: constant folding, IR for data-dependent values, and the
//! ASL helpers the execute blocks call.

use super::*;

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

    pub(super) fn width_of(&self, v: &PV) -> Option<u32> {
        match v {
            PV::K(Const::Bits { width, .. }) => Some(*width),
            PV::S(_, Ty::Bits(w)) => Some(*w),
            _ => None,
        }
    }

    pub(super) fn bits_arg(&mut self, a: &A, f: &str) -> R<(PV, u32)> {
        let v = self.expr(a, None)?;
        match self.width_of(&v) {
            Some(w) => Ok((v, w)),
            None => self.unsupported(format!("`{f}` needs a bit vector")),
        }
    }

    pub(super) fn bool_arg(&mut self, a: &A, f: &str) -> R<bool> {
        match self.expr(a, None)? {
            PV::K(Const::Bool(b)) => Ok(b),
            _ => self.unsupported(format!("`{f}` needs a constant boolean")),
        }
    }
}
