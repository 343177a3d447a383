//! The evaluator's ops that move lanes or reduce them: broadcasts,
//! reductions, shuffles, extracts and inserts, strided slices and
//! contractions.

use super::{int_list, malformed, reduced_inner_dim, Evaluator, SemaError, Val};
use crate::synth::attr::Attr;
use crate::synth::block::BlockOp;
use crate::synth::types::Ty;
use dialectgen::eval::domain::{BvBinOp, BvCmp, Domain};

impl<'d, D: Domain> Evaluator<'d, D> {
    /// `vector.broadcast` of a scalar to every lane.
    pub(super) fn broadcast(&mut self, name: &str, args: &[Val<D::Bv>], ty: Ty) -> Result<Val<D::Bv>, SemaError> {
        if !args[0].ty.dims.is_empty() {
            return Err(SemaError::Unsupported(format!("{name} of a vector")));
        }
        let lanes = vec![args[0].bits.clone(); ty.lanes() as usize];
        Ok(self.pack(lanes, ty))
    }

    /// `vector.reduction` (all of a 1-D vector) or `vector.multi_reduction`
    /// (the innermost dimension of a 2-D one), from the accumulator if
    /// there is one.
    pub(super) fn reduction(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: Ty) -> Result<Val<D::Bv>, SemaError> {
        let name = op.name.as_str();
        let w = ty.elem_bits;
        let k = op.attribute("kind").and_then(Attr::kind).ok_or_else(|| malformed(op, "its kind"))?.to_string();
        let src = &args[0];
        let lanes = self.lanes(src);
        let inner = if name == "vector.reduction" { src.ty.lanes() } else { reduced_inner_dim(op, src)? };
        // The accumulator first, then the elements in order (the
        // order instruction pseudocode sums in; all kinds here are
        // associative and commutative).
        let init_lanes = match args.get(1) {
            Some(init) if !init.ty.dims.is_empty() => Some(self.lanes(init)),
            Some(init) => Some(vec![init.bits.clone()]),
            None => None,
        };
        let mut out = Vec::new();
        for (g, group) in lanes.chunks(inner as usize).enumerate() {
            let (mut acc, rest) = match &init_lanes {
                Some(init) => (init[g].clone(), group),
                None => (group[0].clone(), &group[1..]),
            };
            for x in rest {
                acc = self.combine(&k, &acc, x, w).ok_or_else(|| SemaError::Unsupported(format!("{name} <{k}>")))?;
            }
            out.push(acc);
        }
        Ok(self.pack(out, ty))
    }

    /// `vector.shuffle`: the lanes of both operands its mask picks.
    pub(super) fn shuffle(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: Ty) -> Result<Val<D::Bv>, SemaError> {
        let mask = int_list(op, "mask", "its mask")?;
        let mut all = self.lanes(&args[0]);
        all.extend(self.lanes(&args[1]));
        let lanes = mask
            .iter()
            .map(|&m| all.get(m as usize).cloned().ok_or_else(|| SemaError::Unsupported("poison shuffle lanes".into())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.pack(lanes, ty))
    }

    /// `vector.extract` / `vector.insert` at a static position: the lanes
    /// it names, or the vector with them replaced.
    pub(super) fn extract_or_insert(
        &mut self,
        op: &BlockOp,
        args: &[Val<D::Bv>],
        ty: Ty,
    ) -> Result<Val<D::Bv>, SemaError> {
        let name = op.name.as_str();
        let pos = int_list(op, "static_position", "its position")?;
        let (vector, dest) = if name == "vector.extract" { (&args[0], None) } else { (&args[1], Some(&args[0])) };
        let dims = &vector.ty.dims;
        if pos.len() > dims.len() || pos.iter().zip(dims).any(|(p, d)| *p < 0 || *p >= i64::from(*d)) || args.len() > 2
        {
            return Err(SemaError::Unsupported(format!("{name} at a dynamic position")));
        }
        let inner: u32 = dims[pos.len()..].iter().product();
        let mut offset = 0u32;
        for (k, p) in pos.iter().enumerate() {
            offset += (*p as u32) * dims[k + 1..].iter().product::<u32>();
        }
        let mut lanes = self.lanes(vector);
        let (o, n) = (offset as usize, inner as usize);
        Ok(match dest {
            None => {
                let part = lanes[o..o + n].to_vec();
                self.pack(part, ty)
            }
            Some(value) => {
                let part = self.lanes(value);
                lanes.splice(o..o + n, part);
                self.pack(lanes, ty)
            }
        })
    }

    /// `vector.insert_strided_slice` / `vector.extract_strided_slice` of a
    /// 1-D vector with unit stride.
    pub(super) fn strided_slice(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: Ty) -> Result<Val<D::Bv>, SemaError> {
        let name = op.name.as_str();
        let insert = name == "vector.insert_strided_slice";
        let whole = if insert { &args[1] } else { &args[0] };
        let offsets = int_list(op, "offsets", "its offsets")?;
        let strides = op.attribute("strides").and_then(Attr::ints).map(<[i64]>::to_vec).unwrap_or_else(|| vec![1]);
        if offsets.len() != 1 || whole.ty.dims.len() != 1 || strides != [1] {
            return Err(SemaError::Unsupported(format!("{name} of {}", whole.ty)));
        }
        let o = offsets[0] as usize;
        let mut lanes = self.lanes(whole);
        if insert {
            let part = self.lanes(&args[0]);
            let n = part.len();
            lanes.splice(o..o + n, part);
        } else {
            lanes = lanes[o..o + ty.lanes() as usize].to_vec();
        }
        Ok(self.pack(lanes, ty))
    }

    /// `vector.contract` with `add` over maps whose results are dimensions:
    /// each accumulator element plus the products of the lhs and rhs
    /// elements its indices select, summed over the dimensions the
    /// accumulator's map leaves out (the reduction dimensions), in row-major
    /// order. Products of extensions are computed at the width they need.
    pub(super) fn contract(&mut self, op: &BlockOp, args: &[Val<D::Bv>], ty: &Ty) -> Result<Val<D::Bv>, SemaError> {
        let kind = op.attribute("kind").and_then(Attr::kind).ok_or_else(|| malformed(op, "its kind"))?;
        let maps = op.attribute("indexing_maps").and_then(Attr::maps).ok_or_else(|| malformed(op, "its maps"))?;
        if kind != "add" || args.len() != 3 || maps.len() != 3 || ty.dims.is_empty() {
            return Err(SemaError::Unsupported(format!("vector.contract <{kind}> of this form")));
        }
        let dims = maps[0].0 as usize;
        let mut size = vec![0u32; dims];
        for ((_, results), arg) in maps.iter().zip(args) {
            if results.len() != arg.ty.dims.len() {
                return Err(malformed(op, "maps that fit its operands"));
            }
            for (d, n) in results.iter().zip(&arg.ty.dims) {
                size[*d as usize] = *n;
            }
        }
        let reduction: Vec<usize> = (0..dims).filter(|d| !maps[2].1.contains(&(*d as u32))).collect();
        let flat = |results: &[u32], at: &[u32], shape: &[u32]| {
            results.iter().zip(shape).fold(0usize, |acc, (d, n)| acc * *n as usize + at[*d as usize] as usize)
        };
        // The operands before their extensions, if both are extended: the
        // product at the sum of their widths.
        let narrow = match (args[0].extended_from.as_deref(), args[1].extended_from.as_deref()) {
            (Some((a, sa)), Some((b, sb))) if a.ty.elem_bits + b.ty.elem_bits < ty.elem_bits => {
                Some(((a.clone(), *sa), (b.clone(), *sb)))
            }
            _ => None,
        };
        let (lhs, rhs) = match &narrow {
            Some(((a, _), (b, _))) => (self.lanes(a), self.lanes(b)),
            None => (self.lanes(&args[0]), self.lanes(&args[1])),
        };
        let acc = self.lanes(&args[2]);
        let w = ty.elem_bits;
        let mut out = Vec::with_capacity(acc.len());
        let mut at = vec![0u32; dims];
        for (i, init) in acc.iter().enumerate() {
            // The accumulator's indices, row-major.
            let mut rest = i;
            for (d, n) in maps[2].1.iter().zip(&args[2].ty.dims).rev() {
                at[*d as usize] = (rest % *n as usize) as u32;
                rest /= *n as usize;
            }
            let mut sum = init.clone();
            let combos: usize = reduction.iter().map(|d| size[*d] as usize).product();
            for c in 0..combos {
                let mut rest = c;
                for d in reduction.iter().rev() {
                    at[*d] = (rest % size[*d] as usize) as u32;
                    rest /= size[*d] as usize;
                }
                let x = &lhs[flat(&maps[0].1, &at, &args[0].ty.dims)];
                let y = &rhs[flat(&maps[1].1, &at, &args[1].ty.dims)];
                let p = match &narrow {
                    Some(((a, sa), (b, sb))) => self.narrow_mul(x, y, (a.ty.elem_bits, *sa), (b.ty.elem_bits, *sb), w),
                    None => self.dom.binary(BvBinOp::Mul, x, y, w),
                };
                sum = self.dom.binary(BvBinOp::Add, &sum, &p, w);
            }
            out.push(sum);
        }
        Ok(self.pack(out, ty.clone()))
    }

    /// The larger (`max`) or smaller of `a` and `b`, compared signed or not.
    pub(in crate::synth) fn extreme(&mut self, max: bool, signed: bool, a: &D::Bv, b: &D::Bv, w: u32) -> D::Bv {
        let lt = self.dom.compare(if signed { BvCmp::Slt } else { BvCmp::Ult }, a, b, w);
        if max {
            self.dom.ite(&lt, b, a, w)
        } else {
            self.dom.ite(&lt, a, b, w)
        }
    }

    pub(super) fn combine(&mut self, kind: &str, a: &D::Bv, b: &D::Bv, w: u32) -> Option<D::Bv> {
        let d = &mut *self.dom;
        Some(match kind {
            "add" => d.binary(BvBinOp::Add, a, b, w),
            "mul" => d.binary(BvBinOp::Mul, a, b, w),
            "and" => d.binary(BvBinOp::And, a, b, w),
            "or" => d.binary(BvBinOp::Or, a, b, w),
            "xor" => d.binary(BvBinOp::Xor, a, b, w),
            "maxsi" | "minsi" | "maxui" | "minui" => {
                self.extreme(kind.starts_with("max"), kind.ends_with("si"), a, b, w)
            }
            _ => return None,
        })
    }
}
