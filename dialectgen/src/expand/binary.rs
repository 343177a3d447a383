//! Binary operations over whole vectors: `arith` ops, with the guards that
//! keep them defined where the semantics are (a shift by the width or
//! more, a division by zero or of the smallest value by -1), and sums of
//! several terms per element as `vector.multi_reduction`.

use super::error::ExpandError;
use super::program::{VTy, ValueRef};
use super::terms::{Node, TermId};
use super::vectorize::Vectorizer;
use crate::eval::domain::{BvBinOp, BvCmp};
use num_bigint::BigUint;
use num_traits::One;

impl Vectorizer<'_> {
    pub(super) fn binary(&mut self, op: BvBinOp, lanes: &[TermId]) -> Result<ValueRef, ExpandError> {
        if op == BvBinOp::Add {
            if let Some(v) = self.reduction(lanes)? {
                return Ok(v);
            }
        }
        let operands = |pick_b: bool| -> Vec<TermId> {
            lanes
                .iter()
                .map(|&t| match self.terms.node(t) {
                    Node::Bin { a, b, .. } => {
                        if pick_b {
                            *b
                        } else {
                            *a
                        }
                    }
                    _ => unreachable!("a lane of a binary shape"),
                })
                .collect()
        };
        let (a_lanes, b_lanes) = (operands(false), operands(true));
        let w = self.terms.width(lanes[0]);
        let n = lanes.len() as u32;
        let ty = VTy::vector(n, w);
        let (a, b) = (self.vectorize(&a_lanes)?, self.vectorize(&b_lanes)?);
        let amounts_in_range = b_lanes.iter().all(|&t| self.terms.literal_of(t).is_some_and(|v| *v < BigUint::from(w)));
        use BvBinOp::*;
        let name = match op {
            Add => "arith.addi",
            Sub => "arith.subi",
            Mul => "arith.muli",
            And => "arith.andi",
            Or => "arith.ori",
            Xor => "arith.xori",
            Shl | LShr | AShr if amounts_in_range => match op {
                Shl => "arith.shli",
                LShr => "arith.shrui",
                _ => "arith.shrsi",
            },
            Shl | LShr => return self.guarded_shift(op, a, b, w),
            AShr => {
                // Past the width, an arithmetic shift fills with the sign:
                // as a shift by `w - 1`.
                let top = self.splat(u64::from(w - 1), n, w)?;
                let b = self.push("arith.minui", vec![b, top], vec![], ty.clone())?;
                return self.push("arith.shrsi", vec![a, b], vec![], ty);
            }
            UDiv | URem | SDiv | SRem => return self.division(op, a, b, w),
        };
        self.push(name, vec![a, b], vec![], ty)
    }

    /// A left or logical right shift by amounts that may reach the width:
    /// zero there.
    fn guarded_shift(&mut self, op: BvBinOp, a: ValueRef, b: ValueRef, w: u32) -> Result<ValueRef, ExpandError> {
        let ty = self.ty(a);
        let n = ty.lanes();
        let name = if op == BvBinOp::Shl { "arith.shli" } else { "arith.shrui" };
        let shifted = self.push(name, vec![a, b], vec![], ty.clone())?;
        let width = self.splat(u64::from(w), n, w.max(1))?;
        let in_range = self.compare(BvCmp::Ult, b, width)?;
        let zero = self.splat(0, n, w)?;
        self.push("arith.select", vec![in_range, shifted, zero], vec![], ty)
    }

    /// A division or remainder by a divisor made 1 where the semantics
    /// define the result otherwise (by zero: all ones or the dividend; the
    /// smallest signed value by -1: that value, or 0), then those results.
    fn division(&mut self, op: BvBinOp, a: ValueRef, b: ValueRef, w: u32) -> Result<ValueRef, ExpandError> {
        let ty = self.ty(a);
        let n = ty.lanes();
        let zero = self.splat(0, n, w)?;
        let by_zero = self.compare(BvCmp::Eq, b, zero)?;
        let signed = matches!(op, BvBinOp::SDiv | BvBinOp::SRem);
        let mut replace = by_zero;
        if signed {
            let min = self.constant(&vec![BigUint::one() << (w - 1); n as usize], w)?;
            let ones = self.constant(&vec![(BigUint::one() << w) - BigUint::one(); n as usize], w)?;
            let (is_min, by_minus_one) = (self.compare(BvCmp::Eq, a, min)?, self.compare(BvCmp::Eq, b, ones)?);
            let overflow = self.push("arith.andi", vec![is_min, by_minus_one], vec![], VTy::vector(n, 1))?;
            replace = self.push("arith.ori", vec![by_zero, overflow], vec![], VTy::vector(n, 1))?;
        }
        let one = self.splat(1, n, w)?;
        let divisor = self.push("arith.select", vec![replace, one, b], vec![], ty.clone())?;
        let name = match op {
            BvBinOp::UDiv => "arith.divui",
            BvBinOp::URem => "arith.remui",
            BvBinOp::SDiv => "arith.divsi",
            _ => "arith.remsi",
        };
        let q = self.push(name, vec![a, divisor], vec![], ty.clone())?;
        let otherwise = match op {
            BvBinOp::UDiv => self.constant(&vec![(BigUint::one() << w) - BigUint::one(); n as usize], w)?,
            BvBinOp::SDiv => {
                let negative = self.compare(BvCmp::Slt, a, zero)?;
                let ones = self.constant(&vec![(BigUint::one() << w) - BigUint::one(); n as usize], w)?;
                self.push("arith.select", vec![negative, one, ones], vec![], ty.clone())?
            }
            _ => a,
        };
        self.push("arith.select", vec![by_zero, otherwise, q], vec![], ty)
    }

    fn addends(&self, t: TermId, w: u32, out: &mut Vec<TermId>) {
        match self.terms.node(t) {
            Node::Bin { op: BvBinOp::Add, a, b } if self.terms.width(t) == w => {
                self.addends(*a, w, out);
                self.addends(*b, w, out);
            }
            _ => out.push(t),
        }
    }

    /// Elements that each sum three or more terms of one shape (and at most
    /// one other, an accumulator): `vector.multi_reduction <add>` over the
    /// terms, element by element, into the accumulators (or zero).
    fn reduction(&mut self, lanes: &[TermId]) -> Result<Option<ValueRef>, ExpandError> {
        let w = self.terms.width(lanes[0]);
        let per_lane: Vec<Vec<TermId>> = lanes
            .iter()
            .map(|&t| {
                let mut v = Vec::new();
                self.addends(t, w, &mut v);
                v
            })
            .collect();
        let k = per_lane[0].len();
        if k < 3 || per_lane.iter().any(|l| l.len() != k) {
            return Ok(None);
        }
        let mut counts: Vec<(super::vectorize::Shape, usize)> = Vec::new();
        for &t in per_lane.iter().flatten() {
            let s = self.shape(t);
            match counts.iter_mut().find(|(c, _)| *c == s) {
                Some((_, n)) => *n += 1,
                None => counts.push((s, 1)),
            }
        }
        let common = counts.iter().max_by_key(|(_, n)| *n).map(|(s, _)| s.clone()).expect("terms");
        let (mut terms, mut accs) = (Vec::new(), Vec::new());
        for lane in &per_lane {
            let others: Vec<TermId> = lane.iter().copied().filter(|&t| self.shape(t) != common).collect();
            if others.len() > 1 {
                return Ok(None);
            }
            accs.extend(others);
            terms.extend(lane.iter().copied().filter(|&t| self.shape(t) == common));
        }
        if !accs.is_empty() && accs.len() != lanes.len() {
            return Ok(None);
        }
        let n = lanes.len() as u32;
        let m = (terms.len() / lanes.len()) as u32;
        let flat = self.vectorize(&terms)?;
        let grid = self.push("vector.shape_cast", vec![flat], vec![], VTy { dims: vec![n, m], elem: w })?;
        let acc = if accs.is_empty() { self.splat(0, n, w)? } else { self.vectorize(&accs)? };
        let attrs = vec![("kind", "#vector.kind<add>".to_string()), ("reduction_dims", "array<i64: 1>".to_string())];
        Ok(Some(self.push("vector.multi_reduction", vec![grid, acc], attrs, VTy::vector(n, w))?))
    }
}
