//! Range narrowing of window semantics: a value known to be the extension
//! of a narrower one ([`Val::extended_from`]) is computed at the width that
//! holds it exactly and extended after. `max(x, y) - min(x, y)` of bytes
//! extended to 64 bits is then a 9-bit subtraction, and a sum of eight of
//! them a 12-bit sum: the same function, spelt at any width, reaches the
//! proof at the same small size.
//!
//! Every rule is exact for all inputs (the result fits the narrow width by
//! its operands' ranges); `tests::narrowing_is_exact` checks each against the
//! plain semantics on every input at small widths.

use super::block::BlockOp;
use super::semantics::{Evaluator, Val};
use super::types::Ty;
use dialectgen::eval::domain::{BvBinOp, BvCmp, Domain};
use num_bigint::{BigInt, BigUint};

/// A value as an extension: the narrow value, whether it is sign-extended,
/// its element width.
type Form<'v, B> = (&'v Val<B>, bool, u32);

fn form<B>(v: &Val<B>) -> Option<Form<'_, B>> {
    v.extended_from.as_deref().map(|(x, s)| (x, *s, x.ty.elem_bits))
}

/// Bits a value of `n` bits needs to be read as signed.
fn as_signed(n: u32, signed: bool) -> u32 {
    if signed {
        n
    } else {
        n + 1
    }
}

impl<D: Domain> Evaluator<'_, D> {
    /// `x` (elements `n` bits wide) extended to `to` bits.
    pub(super) fn widen(&mut self, x: &Val<D::Bv>, signed: bool, to: u32) -> Val<D::Bv> {
        let n = x.ty.elem_bits;
        if to == n {
            return Val::new(x.bits.clone(), x.ty.clone());
        }
        self.lanewise(std::slice::from_ref(x), x.ty.with_elem(to), &mut |e, v| {
            if signed {
                e.dom.sign_extend(&v[0], n, to - n)
            } else {
                e.dom.zero_extend(&v[0], n, to - n)
            }
        })
    }

    /// The value of type `ty` that extends `narrow`, remembering the form.
    pub(super) fn extended(&mut self, narrow: Val<D::Bv>, signed: bool, ty: Ty) -> Val<D::Bv> {
        let mut v = self.widen(&narrow, signed, ty.elem_bits);
        v.ty = ty;
        let mut narrow = narrow;
        narrow.extended_from = None;
        v.extended_from = Some(Box::new((narrow, signed)));
        v
    }

    /// `op` of the window's constants alone, folded: its value as a
    /// constant, with the form a constant of that value has (`(c << 8) >> 8`
    /// is `c`, narrow like `c`).
    pub(super) fn folded(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: &Ty) -> Option<Val<D::Bv>> {
        if args.is_empty() || !args.iter().all(|a| a.constant) {
            return None;
        }
        for a in args {
            self.dom.as_literal(&a.bits, a.ty.bits())?;
        }
        let value = self.plain(op, args).ok()?.into_iter().next()?;
        let bits = self.dom.as_literal(&value.bits, ty.bits())?;
        let w = ty.elem_bits;
        let mask = (BigUint::from(1u32) << w) - 1u32;
        let xs: Vec<BigInt> = (0..ty.lanes()).map(|i| BigInt::from((&bits >> (i * w)) & &mask)).collect();
        Some(self.constant(&xs, ty))
    }

    /// `op` computed at a narrower width than its result's, if its operands'
    /// forms allow it exactly.
    pub(super) fn narrowed(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: &Ty) -> Option<Val<D::Bv>> {
        let w = ty.elem_bits;
        let name = op.name.as_str();
        match name {
            "arith.extsi" | "arith.extui" => {
                // An extension of an extension is one extension (a
                // zero-extended value is non-negative: sign-extending it
                // zero-extends), except a zero-extension of a sign-extended
                // value, whose sign bits stop at the inner width: no
                // extension of the narrow value (-1 of i16 through i31 to
                // i32 is 0x7fffffff).
                let (x, s, _) = form(&args[0])?;
                if s && name == "arith.extui" {
                    return None;
                }
                let signed = s && name == "arith.extsi";
                Some(self.extended(x.clone(), signed, ty.clone()))
            }
            "arith.trunci" => {
                let (x, s, n) = form(&args[0])?;
                (n < w).then(|| self.extended(x.clone(), s, ty.clone()))
            }
            "vector.shape_cast" => {
                let (x, s, n) = form(&args[0])?;
                let narrow = Val::new(x.bits.clone(), ty.with_elem(n));
                Some(Val {
                    bits: args[0].bits.clone(),
                    ty: ty.clone(),
                    extended_from: Some(Box::new((narrow, s))),
                    constant: args[0].constant,
                })
            }
            // `x & (2^k - 1)` is x's low k bits zero-extended; `x >> k`
            // its high w - k bits, extended as the shift is signed.
            "arith.andi" if form(&args[0]).is_none() || form(&args[1]).is_none() => {
                let m = self.splat(&args[1])?;
                let k = u32::try_from(m.bits()).ok()?;
                if k == 0 || k >= w || m != (BigUint::from(1u32) << k) - 1u32 {
                    return None;
                }
                let low = self.lanewise(std::slice::from_ref(&args[0]), ty.with_elem(k), &mut |e, x| {
                    e.dom.extract(&x[0], w, k - 1, 0)
                });
                Some(self.extended(low, false, ty.clone()))
            }
            "arith.shrui" | "arith.shrsi" if form(&args[0]).is_none() => {
                let k = u32::try_from(self.splat(&args[1])?).ok().filter(|k| *k > 0 && *k < w)?;
                let high = self.lanewise(std::slice::from_ref(&args[0]), ty.with_elem(w - k), &mut |e, x| {
                    e.dom.extract(&x[0], w, w - 1, k)
                });
                Some(self.extended(high, name == "arith.shrsi", ty.clone()))
            }
            "arith.addi" | "arith.subi" | "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui"
            | "arith.andi" | "arith.ori" | "arith.xori" => {
                let (a, b) = (form(&args[0])?, form(&args[1])?);
                self.narrow_binary(name, a, b, ty)
            }
            "arith.muli" => {
                // The product of n- and m-bit values fits n + m bits
                // (signed if either is).
                let ((xa, sa, na), (xb, sb, nb)) = (form(&args[0])?, form(&args[1])?);
                let n = na + nb;
                if n >= w {
                    return None;
                }
                let (a, b) = (self.widen(xa, sa, n), self.widen(xb, sb, n));
                let narrow_ty = a.ty.clone();
                let p = self.lanewise(&[a, b], narrow_ty, &mut |e, x| e.dom.binary(BvBinOp::Mul, &x[0], &x[1], n));
                Some(self.extended(p, sa || sb, ty.clone()))
            }
            "vector.multi_reduction" | "vector.reduction" => self.narrow_sum(op, args, ty),
            _ => None,
        }
    }

    /// The value every lane of `v` holds, if `v` is a constant splat.
    fn splat(&mut self, v: &Val<D::Bv>) -> Option<BigUint> {
        let (w, lanes) = (v.ty.elem_bits, v.ty.lanes().max(1));
        let all = self.dom.as_literal(&v.bits, w * lanes)?;
        let mask = (BigUint::from(1u32) << w) - 1u32;
        let first = &all & &mask;
        (1..lanes).all(|i| ((&all >> (i * w)) & &mask) == first).then_some(first)
    }

    /// `|x - y|` as `max(x, y) - min(x, y)` computes it (the comparison
    /// signed or not): `y - x` where `x < y`, else `x - y`. Of extensions,
    /// at the width that holds the difference and zero-extended (it is
    /// never negative there).
    pub fn absolute_difference(&mut self, x: &Val<D::Bv>, y: &Val<D::Bv>, signed: bool) -> Val<D::Bv> {
        let ty = x.ty.clone();
        if let (Some((xa, sa, na)), Some((xb, sb, nb))) = (form(x), form(y)) {
            // Both read alike at `m` bits; the difference fits m bits
            // unsigned (m + 1 when they are read signed).
            let any_signed = sa || sb;
            if signed || !any_signed {
                let m = if any_signed { as_signed(na, sa).max(as_signed(nb, sb)) } else { na.max(nb) };
                if m < ty.elem_bits {
                    let (a, b) = (self.widen(xa, sa, m), self.widen(xb, sb, m));
                    let r = self.difference_lanes(a, b, any_signed);
                    return self.extended(r, false, ty);
                }
            }
        }
        self.difference_lanes(x.clone(), y.clone(), signed)
    }

    /// `y - x` where `x < y`, else `x - y`, lane by lane at the operands' width.
    fn difference_lanes(&mut self, x: Val<D::Bv>, y: Val<D::Bv>, signed: bool) -> Val<D::Bv> {
        let (ty, w) = (x.ty.clone(), x.ty.elem_bits);
        let cmp = if signed { BvCmp::Slt } else { BvCmp::Ult };
        self.lanewise(&[x, y], ty, &mut |e, v| {
            let lt = e.dom.compare(cmp, &v[0], &v[1], w);
            let up = e.dom.binary(BvBinOp::Sub, &v[1], &v[0], w);
            let down = e.dom.binary(BvBinOp::Sub, &v[0], &v[1], w);
            e.dom.ite(&lt, &up, &down, w)
        })
    }

    fn narrow_binary(
        &mut self,
        name: &str,
        (xa, sa, na): Form<D::Bv>,
        (xb, sb, nb): Form<D::Bv>,
        ty: &Ty,
    ) -> Option<Val<D::Bv>> {
        let w = ty.elem_bits;
        // Both operands read alike: unsigned if both are, else signed.
        let signed = sa || sb;
        let common = if signed { as_signed(na, sa).max(as_signed(nb, sb)) } else { na.max(nb) };
        let (op, width, result_signed): (Option<BvBinOp>, u32, bool) = match name {
            "arith.addi" => (Some(BvBinOp::Add), common + 1, signed),
            "arith.subi" => {
                let m = as_signed(na, sa).max(as_signed(nb, sb));
                (Some(BvBinOp::Sub), m + 1, true)
            }
            "arith.andi" | "arith.ori" | "arith.xori" if sa == sb => {
                let o = match name {
                    "arith.andi" => BvBinOp::And,
                    "arith.ori" => BvBinOp::Or,
                    _ => BvBinOp::Xor,
                };
                (Some(o), common, signed)
            }
            // An unsigned comparison reads sign-extended values as huge.
            "arith.maxui" | "arith.minui" if !signed => (None, common, false),
            "arith.maxsi" | "arith.minsi" => (None, common, signed),
            _ => return None,
        };
        if width >= w {
            return None;
        }
        let a = self.widen(xa, sa, width);
        let b = self.widen(xb, sb, width);
        let narrow_ty = a.ty.clone();
        let r = match op {
            Some(o) => self.lanewise(&[a, b], narrow_ty, &mut |e, x| e.dom.binary(o, &x[0], &x[1], width)),
            None => {
                let max = name.contains("max");
                self.lanewise(&[a, b], narrow_ty, &mut |e, x| e.extreme(max, result_signed, &x[0], &x[1], width))
            }
        };
        Some(self.extended(r, result_signed, ty.clone()))
    }

    /// An additive reduction of extended elements (and an extended or
    /// absent accumulator), summed at the width the sum of that many needs.
    fn narrow_sum(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: &Ty) -> Option<Val<D::Bv>> {
        use super::attr::Attr;
        if op.attribute("kind").and_then(Attr::kind) != Some("add") {
            return None;
        }
        let (x, sx, nx) = form(&args[0])?;
        let init = match args.get(1) {
            Some(init) => Some(form(init)?),
            None => None,
        };
        let signed = sx || init.is_some_and(|(_, s, _)| s);
        let read = |n: u32, s: bool| if signed { as_signed(n, s) } else { n };
        let mut m = read(nx, sx);
        if let Some((_, s, n)) = init {
            m = m.max(read(n, s));
        }
        let group = if op.name == "vector.reduction" { args[0].ty.lanes() } else { *args[0].ty.dims.last()? };
        let terms = group + u32::from(init.is_some());
        let width = m + (32 - (terms - 1).leading_zeros());
        if width >= ty.elem_bits {
            return None;
        }
        let src = self.widen(x, sx, width);
        let src = Val::new(src.bits, args[0].ty.with_elem(width));
        let init = init.map(|(i, s, _)| {
            let v = self.widen(i, s, width);
            let init_ty = args[1].ty.with_elem(width);
            Val::new(v.bits, init_ty)
        });
        let mut narrow_args = vec![src];
        narrow_args.extend(init);
        let narrow_ty = ty.with_elem(width);
        let narrow_op = BlockOp {
            result_types: vec![Some(narrow_ty.clone())],
            operand_types: narrow_args.iter().map(|a| Some(a.ty.clone())).collect(),
            ..op.clone()
        };
        let r = self.plain(&narrow_op, &narrow_args).ok()?.into_iter().next()?;
        Some(self.extended(r, signed, ty.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::attr::Attr;
    use super::super::block::BlockOp;
    use super::super::semantics::{Evaluator, Val};
    use super::super::types::Ty;
    use dialectgen::eval::Concrete;
    use num_bigint::{BigInt, BigUint};

    fn op(name: &str, operands: usize, result: &Ty, attributes: Vec<(String, Attr)>) -> BlockOp {
        BlockOp {
            index: 0,
            name: name.into(),
            operands: (0..operands).collect(),
            operand_types: vec![None; operands],
            results: vec![operands],
            result_types: vec![Some(result.clone())],
            attributes,
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        }
    }

    /// `x` (of `n` bits) extended (signed or not) to `w` bits, as the
    /// semantics evaluate `arith.ext*`.
    fn extension(e: &mut Evaluator<Concrete>, x: u64, n: u32, signed: bool, w: u32) -> Val<BigUint> {
        let narrow = Val::new(BigUint::from(x), Ty { dims: vec![1], elem_bits: n });
        let name = if signed { "arith.extsi" } else { "arith.extui" };
        e.eval(&op(name, 1, &Ty { dims: vec![1], elem_bits: w }, vec![]), &[narrow]).unwrap().remove(0)
    }

    /// Every narrowed binary op equals the plain op on its extended
    /// operands, for every input of 3 and 4 bits, signed or not, at results
    /// of 8 and 12 bits (where narrowing applies), and so does a sum of
    /// three extended elements with an extended accumulator.
    #[test]
    fn narrowing_is_exact() {
        let binaries = [
            "arith.addi",
            "arith.subi",
            "arith.maxsi",
            "arith.minsi",
            "arith.maxui",
            "arith.minui",
            "arith.andi",
            "arith.ori",
            "arith.xori",
            "arith.muli",
        ];
        let mut narrowed = 0usize;
        for name in binaries {
            for (na, nb) in [(3u32, 3u32), (3, 4), (4, 3)] {
                for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                    for w in [8u32, 12] {
                        let ty = Ty { dims: vec![1], elem_bits: w };
                        for x in 0..1u64 << na {
                            for y in 0..1u64 << nb {
                                let mut dom = Concrete;
                                let mut e = Evaluator::new(&mut dom);
                                let a = extension(&mut e, x, na, sa, w);
                                let b = extension(&mut e, y, nb, sb, w);
                                let o = op(name, 2, &ty, vec![]);
                                let got = e.eval(&o, &[a.clone(), b.clone()]).unwrap().remove(0);
                                narrowed += usize::from(got.extended_from.is_some());
                                let plain = e.plain(&o, &[a, b]).unwrap().remove(0);
                                assert_eq!(got.bits, plain.bits, "{name} {x}:{na}{sa} {y}:{nb}{sb} at {w}");
                            }
                        }
                    }
                }
            }
        }
        assert!(narrowed > 10_000, "narrowing applied {narrowed} times");
        // max - min as the absolute difference, narrowed or not.
        for (na, nb) in [(3u32, 3u32), (3, 4)] {
            for (sa, sb) in [(false, false), (false, true), (true, false), (true, true)] {
                for signed in [false, true] {
                    let ty = Ty { dims: vec![1], elem_bits: 8 };
                    for x in 0..1u64 << na {
                        for y in 0..1u64 << nb {
                            let mut dom = Concrete;
                            let mut e = Evaluator::new(&mut dom);
                            let a = extension(&mut e, x, na, sa, 8);
                            let b = extension(&mut e, y, nb, sb, 8);
                            let (mx, mn) =
                                if signed { ("arith.maxsi", "arith.minsi") } else { ("arith.maxui", "arith.minui") };
                            let hi = e.plain(&op(mx, 2, &ty, vec![]), &[a.clone(), b.clone()]).unwrap().remove(0);
                            let lo = e.plain(&op(mn, 2, &ty, vec![]), &[a.clone(), b.clone()]).unwrap().remove(0);
                            let plain = e.plain(&op("arith.subi", 2, &ty, vec![]), &[hi, lo]).unwrap().remove(0);
                            let got = e.absolute_difference(&a, &b, signed);
                            assert_eq!(got.bits, plain.bits, "|{x}:{na}{sa} - {y}:{nb}{sb}| signed {signed}");
                        }
                    }
                }
            }
        }
        // An extension of an extension against the plain ops: every 3-bit
        // input, each kind of each, through 5 bits to 8.
        for inner in [false, true] {
            for outer in [false, true] {
                for x in 0..1u64 << 3 {
                    let mut dom = Concrete;
                    let mut e = Evaluator::new(&mut dom);
                    let middle = extension(&mut e, x, 3, inner, 5);
                    let name = if outer { "arith.extsi" } else { "arith.extui" };
                    let o = op(name, 1, &Ty { dims: vec![1], elem_bits: 8 }, vec![]);
                    let got = e.eval(&o, std::slice::from_ref(&middle)).unwrap().remove(0);
                    let plain = e.plain(&o, &[middle]).unwrap().remove(0);
                    assert_eq!(got.bits, plain.bits, "{x} extended {inner} to 5 bits, then {outer} to 8");
                }
            }
        }
        // A mask of the low k bits and a shift right by k, of a value that
        // is not an extension, against the plain ops: every 6-bit input.
        let ty = Ty { dims: vec![1], elem_bits: 6 };
        for k in 0..=7u64 {
            for x in 0..1u64 << 6 {
                for name in ["arith.andi", "arith.shrui", "arith.shrsi"] {
                    let mut dom = Concrete;
                    let mut e = Evaluator::new(&mut dom);
                    let value = Val::new(BigUint::from(x), ty.clone());
                    let amount = if name == "arith.andi" { (1u64 << k.min(6)) - 1 } else { k };
                    let constant = Val::new(BigUint::from(amount & 0x3f), ty.clone());
                    let o = op(name, 2, &ty, vec![]);
                    let got = e.eval(&o, &[value.clone(), constant.clone()]).unwrap().remove(0);
                    let plain = e.plain(&o, &[value, constant]).unwrap().remove(0);
                    assert_eq!(got.bits, plain.bits, "{name} {x} by {amount}");
                    assert_eq!(got.extended_from.is_some(), (1..6).contains(&k), "{name} {x} by {amount}");
                }
            }
        }
        // Constants folded: `(12 << 8) >> 8` of two constants is the
        // constant 12, narrow as 12 is (4 bits); of a value that is not a
        // constant, it is not folded.
        let ty = Ty { dims: vec![2], elem_bits: 16 };
        let mut dom = Concrete;
        let mut e = Evaluator::new(&mut dom);
        let attrs = |x: i64| vec![("value".to_string(), Attr::Elements(vec![BigInt::from(x); 2]))];
        let k = e.eval(&op("arith.constant", 0, &ty, attrs(3072)), &[]).unwrap().remove(0);
        let eight = e.eval(&op("arith.constant", 0, &ty, attrs(8)), &[]).unwrap().remove(0);
        let shift = op("arith.shrui", 2, &ty, vec![]);
        let folded = e.eval(&shift, &[k.clone(), eight.clone()]).unwrap().remove(0);
        assert!(folded.constant);
        assert_eq!(folded.bits, BigUint::from(12u32 << 16 | 12));
        assert_eq!(folded.extended_from.as_ref().map(|f| f.0.ty.elem_bits), Some(4));
        let value = Val::new(k.bits.clone(), ty.clone());
        assert!(!e.eval(&shift, &[value, eight]).unwrap().remove(0).constant);
        // A sum of three elements and an accumulator.
        let src_ty = Ty { dims: vec![1, 3], elem_bits: 16 };
        let ty = Ty { dims: vec![1], elem_bits: 16 };
        let attrs =
            vec![("kind".to_string(), Attr::Kind("add".into())), ("reduction_dims".to_string(), Attr::Ints(vec![1]))];
        let reduce = op("vector.multi_reduction", 2, &ty, attrs);
        for s in [false, true] {
            for bits in 0..1u64 << 12 {
                let mut dom = Concrete;
                let mut e = Evaluator::new(&mut dom);
                let narrow = Val::new(BigUint::from(bits & 0x1ff), Ty { dims: vec![1, 3], elem_bits: 3 });
                let name = if s { "arith.extsi" } else { "arith.extui" };
                let src = e.eval(&op(name, 1, &src_ty, vec![]), &[narrow]).unwrap().remove(0);
                let init = extension(&mut e, bits >> 9, 3, !s, 16);
                let got = e.eval(&reduce, &[src.clone(), init.clone()]).unwrap().remove(0);
                assert!(got.extended_from.is_some());
                let plain = e.plain(&reduce, &[src, init]).unwrap().remove(0);
                assert_eq!(got.bits, plain.bits, "sum of {bits:#x} signed {s}");
            }
        }
    }
}
