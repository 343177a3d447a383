//! Bitvector semantics of the `arith` and `vector` ops synthesis reads, over
//! any evaluation domain (concrete numbers for screening, Z3 terms for
//! proofs). Element 0 of a vector is its lowest bits, as in LLVM's bitcasts
//! and in the instruction pseudocode.
//!
//! Where an op is undefined (division by zero, a shift by the width or more,
//! signed overflow of a division), the window is: the proof only asks for
//! equality where every op of the window is defined, so a rewrite can never
//! change a defined result.

mod lanes;

use super::attr::Attr;
use super::block::BlockOp;
use super::types::Ty;
use dialectgen::eval::domain::{BvBinOp, BvCmp, Domain};
use num_bigint::{BigInt, BigUint};

/// A value: its bits and its type.
#[derive(Clone, Debug)]
pub struct Val<B> {
    pub bits: B,
    pub ty: Ty,
    /// For an extension (`extsi`/`extui`): the value before it and whether
    /// it was sign-extended. A product of two extensions is computed at the
    /// width it needs and extended after, as instruction pseudocode writes
    /// it, which keeps proofs small.
    pub extended_from: Option<Box<(Val<B>, bool)>>,
    /// Computed from the window's constants alone (folded: see
    /// `Evaluator::folded`).
    pub constant: bool,
}

impl<B> Val<B> {
    pub fn new(bits: B, ty: Ty) -> Val<B> {
        Val { bits, ty, extended_from: None, constant: false }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SemaError {
    #[error("`{0}` has no semantics here")]
    Unsupported(String),
    #[error("`{op}`: cannot read {what}")]
    Malformed { op: String, what: String },
}

/// Evaluation of ops over a domain, collecting definedness conditions.
pub struct Evaluator<'d, D: Domain> {
    pub dom: &'d mut D,
    /// 1-bit values that must all be 1 for the window to be defined.
    pub defined: Vec<D::Bv>,
    /// Every op at the width it is written at: no narrowing by ranges (a
    /// sum of products stays a polynomial of one width).
    pub wide: bool,
}

fn malformed(op: &BlockOp, what: &str) -> SemaError {
    SemaError::Malformed { op: op.name.clone(), what: what.into() }
}

/// The integer list `op` must carry as attribute `attr`; `what` names it
/// in the error when it is missing.
fn int_list(op: &BlockOp, attr: &str, what: &str) -> Result<Vec<i64>, SemaError> {
    op.attribute(attr).and_then(Attr::ints).map(<[i64]>::to_vec).ok_or_else(|| malformed(op, what))
}

/// The size of the dimension a `vector.multi_reduction` reduces: the
/// innermost of a 2-D vector, the only one it reads.
fn reduced_inner_dim<B>(op: &BlockOp, src: &Val<B>) -> Result<u32, SemaError> {
    let name = op.name.as_str();
    let dims = int_list(op, "reduction_dims", "its dims")?;
    if src.ty.dims.len() != 2 || dims != [1] {
        return Err(SemaError::Unsupported(format!("{name} over dims {dims:?} of {}", src.ty)));
    }
    Ok(src.ty.dims[1])
}

fn unsigned_bits(x: &BigInt, width: u32) -> BigUint {
    let m = BigInt::from(1) << width;
    let r = ((x % &m) + &m) % &m;
    r.to_biguint().unwrap_or_default()
}

impl<'d, D: Domain> Evaluator<'d, D> {
    pub fn new(dom: &'d mut D) -> Self {
        Evaluator { dom, defined: Vec::new(), wide: false }
    }

    /// An evaluator without narrowing (see [`Evaluator::wide`]'s field).
    pub fn wide(dom: &'d mut D) -> Self {
        Evaluator { dom, defined: Vec::new(), wide: true }
    }

    fn lanes(&mut self, v: &Val<D::Bv>) -> Vec<D::Bv> {
        let (w, n) = (v.ty.elem_bits, v.ty.lanes());
        (0..n).map(|i| self.dom.extract(&v.bits, v.ty.bits(), (i + 1) * w - 1, i * w)).collect()
    }

    fn pack(&mut self, lanes: Vec<D::Bv>, ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let mut it = lanes.into_iter();
        let mut bits = it.next().expect("a vector has lanes");
        let mut width = w;
        for lane in it {
            bits = self.dom.concat(&lane, w, &bits, width);
            width += w;
        }
        Val::new(bits, ty)
    }

    pub(super) fn lanewise(
        &mut self,
        args: &[Val<D::Bv>],
        ty: Ty,
        f: &mut dyn FnMut(&mut Self, &[D::Bv]) -> D::Bv,
    ) -> Val<D::Bv> {
        let per_arg: Vec<Vec<D::Bv>> = args.iter().map(|a| self.lanes(a)).collect();
        let out: Vec<D::Bv> = (0..ty.lanes() as usize)
            .map(|i| {
                let xs: Vec<D::Bv> = per_arg.iter().map(|l| l[i].clone()).collect();
                f(self, &xs)
            })
            .collect();
        self.pack(out, ty)
    }

    /// `x * y` of elements `na` and `nb` bits wide, each extended (signed
    /// or not) to the sum of their widths, the product then extended to `w`.
    fn narrow_mul(&mut self, x: &D::Bv, y: &D::Bv, (na, sa): (u32, bool), (nb, sb): (u32, bool), w: u32) -> D::Bv {
        let n = na + nb;
        let ext = |e: &mut Self, v: &D::Bv, from: u32, signed: bool| {
            if signed {
                e.dom.sign_extend(v, from, n - from)
            } else {
                e.dom.zero_extend(v, from, n - from)
            }
        };
        let (xa, yb) = (ext(self, x, na, sa), ext(self, y, nb, sb));
        let p = self.dom.binary(BvBinOp::Mul, &xa, &yb, n);
        if sa || sb {
            self.dom.sign_extend(&p, n, w - n)
        } else {
            self.dom.zero_extend(&p, n, w - n)
        }
    }

    /// A constant of type `ty` with elements `xs`; small constants are
    /// extensions too (clamp bounds, zeros).
    pub(super) fn constant(&mut self, xs: &[BigInt], ty: &Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let lanes: Vec<D::Bv> = xs.iter().map(|x| self.literal_int(x, w)).collect();
        let v = self.pack(lanes, ty.clone());
        let (n, signed) = super::types::constant_width(xs);
        if n < w && !self.wide {
            let narrow: Vec<D::Bv> = xs.iter().map(|x| self.literal_int(x, n)).collect();
            let narrow = self.pack(narrow, ty.with_elem(n));
            Val { extended_from: Some(Box::new((narrow, signed))), constant: true, ..v }
        } else {
            Val { constant: true, ..v }
        }
    }

    fn literal_int(&mut self, x: &BigInt, width: u32) -> D::Bv {
        self.dom.literal(&unsigned_bits(x, width), width)
    }

    fn require(&mut self, cond: D::Bv) {
        self.defined.push(cond);
    }

    /// `a / b` is defined: `b != 0`, and for signed division not `MIN / -1`.
    fn require_division_defined(&mut self, a: &D::Bv, b: &D::Bv, w: u32, signed: bool) {
        let zero = self.dom.literal(&BigUint::from(0u8), w);
        let one = self.dom.literal(&BigUint::from(1u8), 1);
        let is_zero = self.dom.compare(BvCmp::Eq, b, &zero, w);
        let nonzero = self.dom.binary(BvBinOp::Xor, &is_zero, &one, 1);
        self.require(nonzero);
        if signed {
            let min = self.dom.literal(&(BigUint::from(1u8) << (w - 1)), w);
            let ones = self.dom.literal(&((BigUint::from(1u8) << w) - 1u8), w);
            let a_min = self.dom.compare(BvCmp::Eq, a, &min, w);
            let b_m1 = self.dom.compare(BvCmp::Eq, b, &ones, w);
            let both = self.dom.binary(BvBinOp::And, &a_min, &b_m1, 1);
            let fine = self.dom.binary(BvBinOp::Xor, &both, &one, 1);
            self.require(fine);
        }
    }

    /// The results of `op` given its operands: at a narrower width where
    /// the operands' ranges allow ([`super::narrow`]), else as written.
    pub fn eval(&mut self, op: &BlockOp, args: &[Val<D::Bv>]) -> Result<Vec<Val<D::Bv>>, SemaError> {
        if let [Some(ty)] = op.result_types.as_slice() {
            if let Some(v) = self.folded(op, args, ty) {
                return Ok(vec![v]);
            }
            if !self.wide {
                if let Some(v) = self.narrowed(op, args, ty) {
                    return Ok(vec![v]);
                }
            }
        }
        self.plain(op, args)
    }

    /// The results of `op` given its operands, at the widths it is written at.
    pub fn plain(&mut self, op: &BlockOp, args: &[Val<D::Bv>]) -> Result<Vec<Val<D::Bv>>, SemaError> {
        let result_ty =
            |k: usize| op.result_types.get(k).cloned().flatten().ok_or_else(|| malformed(op, "a result type"));
        let ty = result_ty(0)?;
        let w = ty.elem_bits;
        let name = op.name.as_str();
        match name {
            "arith.mulsi_extended" | "arith.mului_extended" => {
                return Ok(self.extended_product(args, ty, name == "arith.mulsi_extended"));
            }
            "vector.deinterleave" => return Ok(self.deinterleave(args, ty, result_ty(1)?)),
            _ => {}
        }
        let v = match name {
            "arith.constant" => {
                let xs = op
                    .attribute("value")
                    .and_then(|a| a.lanes(ty.lanes()))
                    .ok_or_else(|| malformed(op, "its value"))?;
                self.constant(&xs, &ty)
            }
            "arith.addi" | "arith.subi" | "arith.muli" | "arith.andi" | "arith.ori" | "arith.xori" => {
                self.ring_or_bitwise(name, args, ty)
            }
            "arith.shli" | "arith.shrsi" | "arith.shrui" => self.shift(name, args, ty),
            "arith.divsi" | "arith.divui" | "arith.remsi" | "arith.remui" => self.division(name, args, ty),
            "arith.maxsi" | "arith.minsi" | "arith.maxui" | "arith.minui" => {
                let (max, signed) = (name.contains("max"), name.ends_with("si"));
                self.lanewise(args, ty, &mut |e, x| e.extreme(max, signed, &x[0], &x[1], w))
            }
            "arith.extsi" | "arith.extui" | "arith.trunci" => self.extension(name, args, ty),
            "arith.cmpi" => self.comparison(op, args, ty)?,
            "arith.select" => self.select(args, ty),
            "vector.shape_cast" | "vector.bitcast" => Val::new(args[0].bits.clone(), ty),
            "vector.broadcast" => self.broadcast(name, args, ty)?,
            "vector.contract" => self.contract(op, args, &ty)?,
            "vector.multi_reduction" | "vector.reduction" => self.reduction(op, args, ty)?,
            "vector.shuffle" => self.shuffle(op, args, ty)?,
            "vector.interleave" => {
                let (a, b) = (self.lanes(&args[0]), self.lanes(&args[1]));
                let lanes = a.into_iter().zip(b).flat_map(|(x, y)| [x, y]).collect();
                self.pack(lanes, ty)
            }
            "arith.ceildivsi" | "arith.floordivsi" => self.rounded_division(name == "arith.ceildivsi", args, ty),
            "vector.extract" | "vector.insert" => self.extract_or_insert(op, args, ty)?,
            "vector.insert_strided_slice" | "vector.extract_strided_slice" => self.strided_slice(op, args, ty)?,
            _ => return Err(SemaError::Unsupported(name.to_string())),
        };
        Ok(vec![v])
    }

    /// `arith.mulsi_extended` / `arith.mului_extended`: the full product at
    /// twice the width, as its low half and its high half.
    fn extended_product(&mut self, args: &[Val<D::Bv>], ty: Ty, signed: bool) -> Vec<Val<D::Bv>> {
        let w = ty.elem_bits;
        let (mut low, mut high) = (Vec::new(), Vec::new());
        let (xs, ys) = (self.lanes(&args[0]), self.lanes(&args[1]));
        for (x, y) in xs.iter().zip(&ys) {
            let (x, y) = if signed {
                (self.dom.sign_extend(x, w, w), self.dom.sign_extend(y, w, w))
            } else {
                (self.dom.zero_extend(x, w, w), self.dom.zero_extend(y, w, w))
            };
            let p = self.dom.binary(BvBinOp::Mul, &x, &y, 2 * w);
            low.push(self.dom.extract(&p, 2 * w, w - 1, 0));
            high.push(self.dom.extract(&p, 2 * w, 2 * w - 1, w));
        }
        vec![self.pack(low, ty.clone()), self.pack(high, ty)]
    }

    /// `vector.deinterleave`: the even elements, then the odd elements.
    fn deinterleave(&mut self, args: &[Val<D::Bv>], ty: Ty, second: Ty) -> Vec<Val<D::Bv>> {
        let lanes = self.lanes(&args[0]);
        let even = lanes.iter().step_by(2).cloned().collect();
        let odd = lanes.iter().skip(1).step_by(2).cloned().collect();
        vec![self.pack(even, ty), self.pack(odd, second)]
    }

    /// `arith.addi`, `subi`, `muli`, `andi`, `ori`, `xori`: one bitvector
    /// operation per lane.
    fn ring_or_bitwise(&mut self, name: &str, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let o = match name {
            "arith.addi" => BvBinOp::Add,
            "arith.subi" => BvBinOp::Sub,
            "arith.muli" => BvBinOp::Mul,
            "arith.andi" => BvBinOp::And,
            "arith.ori" => BvBinOp::Or,
            _ => BvBinOp::Xor,
        };
        self.lanewise(args, ty, &mut |e, x| e.dom.binary(o, &x[0], &x[1], w))
    }

    /// `arith.shli`, `shrsi`, `shrui`, lane by lane.
    fn shift(&mut self, name: &str, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let o = match name {
            "arith.shli" => BvBinOp::Shl,
            "arith.shrsi" => BvBinOp::AShr,
            _ => BvBinOp::LShr,
        };
        // A shift by the width or more is poison in its own lane
        // only, not undefined behaviour of the whole window: the
        // other lanes must still be computed. The bitvector shift's
        // value (zero, or the sign) stands for it, so a program must
        // give that value there too: stricter than poison, never
        // looser.
        if self.wide && name == "arith.shli" {
            // `x << k` is `x * (1 << k)` for every `k` (both zero
            // from the width on): a product, as sums of monomials
            // read it.
            self.lanewise(args, ty, &mut |e, x| {
                let one = e.literal_int(&BigInt::from(1), w);
                let power = e.dom.binary(BvBinOp::Shl, &one, &x[1], w);
                e.dom.binary(BvBinOp::Mul, &x[0], &power, w)
            })
        } else {
            self.lanewise(args, ty, &mut |e, x| e.dom.binary(o, &x[0], &x[1], w))
        }
    }

    /// `arith.divsi`, `divui`, `remsi`, `remui`, lane by lane, each lane
    /// required to be defined.
    fn division(&mut self, name: &str, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let signed = name.ends_with("si");
        let o = match name {
            "arith.divsi" => BvBinOp::SDiv,
            "arith.divui" => BvBinOp::UDiv,
            "arith.remsi" => BvBinOp::SRem,
            _ => BvBinOp::URem,
        };
        self.lanewise(args, ty, &mut |e, x| {
            e.require_division_defined(&x[0], &x[1], w, signed);
            e.dom.binary(o, &x[0], &x[1], w)
        })
    }

    /// `arith.ceildivsi` (`ceil`) or `arith.floordivsi`: the truncated
    /// quotient, moved by one when inexact and rounded the other way.
    fn rounded_division(&mut self, ceil: bool, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        self.lanewise(args, ty, &mut |e, x| {
            e.require_division_defined(&x[0], &x[1], w, true);
            let zero = e.dom.literal(&BigUint::from(0u8), w);
            let one1 = e.dom.literal(&BigUint::from(1u8), 1);
            let q = e.dom.binary(BvBinOp::SDiv, &x[0], &x[1], w);
            let r = e.dom.binary(BvBinOp::SRem, &x[0], &x[1], w);
            let r_zero = e.dom.compare(BvCmp::Eq, &r, &zero, w);
            let a_neg = e.dom.compare(BvCmp::Slt, &x[0], &zero, w);
            let b_neg = e.dom.compare(BvCmp::Slt, &x[1], &zero, w);
            let differ = e.dom.binary(BvBinOp::Xor, &a_neg, &b_neg, 1);
            // Round away from the truncated quotient when inexact:
            // up for ceil with equal signs, down for floor with different.
            let wanted = if ceil { e.dom.binary(BvBinOp::Xor, &differ, &one1, 1) } else { differ };
            let inexact = e.dom.binary(BvBinOp::Xor, &r_zero, &one1, 1);
            let adjust = e.dom.binary(BvBinOp::And, &wanted, &inexact, 1);
            let step = e.dom.literal(&BigUint::from(1u8), w);
            let moved =
                if ceil { e.dom.binary(BvBinOp::Add, &q, &step, w) } else { e.dom.binary(BvBinOp::Sub, &q, &step, w) };
            e.dom.ite(&adjust, &moved, &q, w)
        })
    }

    /// `arith.extsi`, `extui`, `trunci`, lane by lane; an extension
    /// remembers the value it extends (see [`Val::extended_from`]).
    fn extension(&mut self, name: &str, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        let from = args[0].ty.elem_bits;
        let mut v = self.lanewise(args, ty, &mut |e, x| match name {
            "arith.extsi" => e.dom.sign_extend(&x[0], from, w - from),
            "arith.extui" => e.dom.zero_extend(&x[0], from, w - from),
            _ => e.dom.extract(&x[0], from, w - 1, 0),
        });
        if name != "arith.trunci" && !self.wide {
            let mut narrow = args[0].clone();
            narrow.extended_from = None;
            v.extended_from = Some(Box::new((narrow, name == "arith.extsi")));
        }
        v
    }

    /// `arith.cmpi`: its predicate, lane by lane, as a 1-bit lane.
    fn comparison(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: Ty) -> Result<Val<D::Bv>, SemaError> {
        let p = op
            .attribute("predicate")
            .and_then(|a| i64::try_from(a.int()?).ok())
            .ok_or_else(|| malformed(op, "its predicate"))?;
        let aw = args[0].ty.elem_bits;
        Ok(self.lanewise(args, ty, &mut |e, x| {
            let (a, b) = (&x[0], &x[1]);
            let one = e.dom.literal(&BigUint::from(1u8), 1);
            let (c, swap, negate) = match p {
                0 => (BvCmp::Eq, false, false),
                1 => (BvCmp::Eq, false, true),
                2 => (BvCmp::Slt, false, false),
                3 => (BvCmp::Sle, false, false),
                4 => (BvCmp::Slt, true, false),
                5 => (BvCmp::Sle, true, false),
                6 => (BvCmp::Ult, false, false),
                7 => (BvCmp::Ule, false, false),
                8 => (BvCmp::Ult, true, false),
                _ => (BvCmp::Ule, true, false),
            };
            let r = if swap { e.dom.compare(c, b, a, aw) } else { e.dom.compare(c, a, b, aw) };
            if negate {
                e.dom.binary(BvBinOp::Xor, &r, &one, 1)
            } else {
                r
            }
        }))
    }

    /// `arith.select`: lane by lane, or the whole vector on one condition.
    fn select(&mut self, args: &[Val<D::Bv>], ty: Ty) -> Val<D::Bv> {
        let w = ty.elem_bits;
        if args[0].ty.dims.is_empty() && !ty.dims.is_empty() {
            // One condition for the whole vector.
            let (t, f) = (args[1].bits.clone(), args[2].bits.clone());
            let bits = self.dom.ite(&args[0].bits, &t, &f, ty.bits());
            Val::new(bits, ty)
        } else {
            self.lanewise(args, ty, &mut |e, x| e.dom.ite(&x[0], &x[1], &x[2], w))
        }
    }
}

/// Whether synthesis can read this op: its name is [`supported`] and its
/// form is one the semantics model (strided slices of one dimension only;
/// the n-D ones a split contraction reads are window boundaries).
pub fn synthesizable(op: &BlockOp) -> bool {
    let strided = matches!(op.name.as_str(), "vector.extract_strided_slice" | "vector.insert_strided_slice");
    let one_dimensional =
        || op.operand_types.iter().chain(&op.result_types).all(|t| t.as_ref().is_some_and(|t| t.dims.len() <= 1));
    supported(&op.name) && (!strided || one_dimensional())
}

/// Whether synthesis reads `name` (the ops [`Evaluator::eval`] knows).
pub fn supported(name: &str) -> bool {
    matches!(
        name,
        "arith.constant"
            | "arith.mulsi_extended"
            | "arith.mului_extended"
            | "vector.deinterleave"
            | "arith.addi"
            | "arith.subi"
            | "arith.muli"
            | "arith.andi"
            | "arith.ori"
            | "arith.xori"
            | "arith.shli"
            | "arith.shrsi"
            | "arith.shrui"
            | "arith.divsi"
            | "arith.divui"
            | "arith.remsi"
            | "arith.remui"
            | "arith.maxsi"
            | "arith.minsi"
            | "arith.maxui"
            | "arith.minui"
            | "arith.extsi"
            | "arith.extui"
            | "arith.trunci"
            | "arith.cmpi"
            | "arith.select"
            | "vector.shape_cast"
            | "vector.bitcast"
            | "vector.broadcast"
            | "vector.multi_reduction"
            | "vector.reduction"
            | "vector.contract"
            | "vector.shuffle"
            | "vector.interleave"
            | "vector.extract_strided_slice"
            | "vector.insert_strided_slice"
            | "vector.extract"
            | "vector.insert"
            | "arith.ceildivsi"
            | "arith.floordivsi"
    )
}
