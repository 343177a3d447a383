//! From the terms of a result's elements to vector ops: elements whose
//! terms have one shape become one op over all of them (their operands
//! vectorized the same way, recursively); a slice of an argument becomes a
//! lane of that argument, gathered by `vector.shuffle` or
//! `vector.extract_strided_slice`; a sum of several terms per element
//! becomes a `vector.multi_reduction`; elements of different shapes are
//! computed apart and blended by a shuffle.

use super::error::ExpandError;
use super::program::{Expansion, VTy, ValueRef};
use super::terms::{Node, TermId, Terms};
use crate::eval::domain::{BvBinOp, BvCmp};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// The most ops one expansion may have.
const MAX_OPS: usize = 6000;

/// What the elements of one op share: the node kind and its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Shape {
    /// A slice of an argument (or all of it).
    Leaf,
    Lit,
    Extract {
        hi: u32,
        lo: u32,
        from: u32,
    },
    Ext {
        signed: bool,
        from: u32,
    },
    Concat {
        hi: u32,
        lo: u32,
    },
    Bin(BvBinOp),
    Not,
    Cmp(BvCmp, u32),
    Ite,
}

pub struct Vectorizer<'t> {
    pub terms: &'t Terms,
    pub program: Expansion,
    /// The op operand each argument of the semantics is (none for an
    /// immediate, which the terms hold as a number).
    pub operand_of: Vec<Option<usize>>,
    memo: HashMap<Vec<TermId>, ValueRef>,
    views: HashMap<(usize, u32), ValueRef>,
}

fn signed_text(v: &BigUint, w: u32) -> String {
    if w == 1 {
        return if v.is_zero() { "false".into() } else { "true".into() };
    }
    if v.bit(u64::from(w - 1)) {
        let m = BigUint::one() << w;
        format!("-{}", m - v)
    } else {
        v.to_string()
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn array(values: impl IntoIterator<Item = i64>) -> String {
    let v: Vec<String> = values.into_iter().map(|x| x.to_string()).collect();
    format!("array<i64: {}>", v.join(", "))
}

impl<'t> Vectorizer<'t> {
    pub fn new(terms: &'t Terms, operand_types: Vec<VTy>, operand_of: Vec<Option<usize>>) -> Self {
        let program = Expansion { operand_types, ..Default::default() };
        Vectorizer { terms, program, operand_of, memo: HashMap::new(), views: HashMap::new() }
    }

    pub(super) fn shape(&self, t: TermId) -> Shape {
        match self.terms.node(t) {
            Node::Input { .. } => Shape::Leaf,
            Node::Extract { x, .. } if matches!(self.terms.node(*x), Node::Input { .. }) => Shape::Leaf,
            Node::Lit(_) => Shape::Lit,
            Node::Extract { x, hi, lo } => Shape::Extract { hi: *hi, lo: *lo, from: self.terms.width(*x) },
            Node::Ext { x, signed } => Shape::Ext { signed: *signed, from: self.terms.width(*x) },
            Node::Concat { hi, lo } => Shape::Concat { hi: self.terms.width(*hi), lo: self.terms.width(*lo) },
            Node::Bin { op, .. } => Shape::Bin(*op),
            Node::Not(_) => Shape::Not,
            Node::Cmp { op, a, .. } => Shape::Cmp(*op, self.terms.width(*a)),
            Node::Ite { .. } => Shape::Ite,
        }
    }

    pub(super) fn push(
        &mut self,
        name: &'static str,
        operands: Vec<ValueRef>,
        attrs: Vec<(&'static str, String)>,
        result: VTy,
    ) -> Result<ValueRef, ExpandError> {
        if self.program.ops.len() >= MAX_OPS {
            return Err(ExpandError::TooLarge(MAX_OPS));
        }
        Ok(self.program.push(name, operands, attrs, result))
    }

    pub(super) fn ty(&self, v: ValueRef) -> VTy {
        self.program.type_of(v).clone()
    }

    /// A vector of `values`, each `w` bits.
    pub(super) fn constant(&mut self, values: &[BigUint], w: u32) -> Result<ValueRef, ExpandError> {
        let ty = VTy::vector(values.len() as u32, w);
        let text = if values.iter().all(|v| *v == values[0]) {
            format!("dense<{}> : {ty}", signed_text(&values[0], w))
        } else {
            let v: Vec<String> = values.iter().map(|v| signed_text(v, w)).collect();
            format!("dense<[{}]> : {ty}", v.join(", "))
        };
        self.push("arith.constant", vec![], vec![("value", text)], ty)
    }

    pub(super) fn splat(&mut self, value: u64, lanes: u32, w: u32) -> Result<ValueRef, ExpandError> {
        let v = BigUint::from(value) & ((BigUint::one() << w) - BigUint::one());
        self.constant(&vec![v; lanes as usize], w)
    }

    /// The result vector of `lanes` (one term per element, all of one width).
    pub fn vectorize(&mut self, lanes: &[TermId]) -> Result<ValueRef, ExpandError> {
        if let Some(v) = self.memo.get(lanes) {
            return Ok(*v);
        }
        let literal = self.terms.literal_of(lanes[0]).is_some();
        let v = if lanes.len() > 1 && !literal && lanes.iter().all(|&t| t == lanes[0]) {
            // One element, taken out and broadcast: a splat of a scalar.
            let one = self.vectorize(&lanes[..1])?;
            let w = self.terms.width(lanes[0]);
            let position = vec![("static_position", "array<i64: 0>".to_string())];
            let scalar = self.push("vector.extract", vec![one], position, VTy { dims: Vec::new(), elem: w })?;
            self.push("vector.broadcast", vec![scalar], vec![], VTy::vector(lanes.len() as u32, w))?
        } else {
            let mut groups: Vec<(Shape, Vec<usize>)> = Vec::new();
            for (i, &t) in lanes.iter().enumerate() {
                let s = self.shape(t);
                match groups.iter_mut().find(|(g, _)| *g == s) {
                    Some((_, at)) => at.push(i),
                    None => groups.push((s, vec![i])),
                }
            }
            if groups.len() == 1 {
                self.one_shape(&groups[0].0, lanes)?
            } else {
                let parts = groups
                    .into_iter()
                    .map(|(_, at)| {
                        let sub: Vec<TermId> = at.iter().map(|&i| lanes[i]).collect();
                        Ok((self.vectorize(&sub)?, at))
                    })
                    .collect::<Result<Vec<_>, ExpandError>>()?;
                self.blend(parts)?
            }
        };
        self.memo.insert(lanes.to_vec(), v);
        Ok(v)
    }

    /// One vector of the lanes of `parts` (each a vector and the positions
    /// its lanes take), by shuffles.
    pub(super) fn blend(&mut self, parts: Vec<(ValueRef, Vec<usize>)>) -> Result<ValueRef, ExpandError> {
        let mut it = parts.into_iter();
        let (mut acc, mut at) = it.next().ok_or(ExpandError::Unsupported("a vector of no lanes".into()))?;
        for (v, pos) in it {
            let mut merged: Vec<usize> = at.iter().chain(&pos).copied().collect();
            merged.sort_unstable();
            let n_acc = at.len();
            let mask = merged.iter().map(|p| match at.iter().position(|q| q == p) {
                Some(i) => i as i64,
                None => (n_acc + pos.iter().position(|q| q == p).expect("a lane of one part")) as i64,
            });
            let w = self.ty(acc).elem;
            let ty = VTy::vector(merged.len() as u32, w);
            acc = self.push("vector.shuffle", vec![acc, v], vec![("mask", array(mask))], ty)?;
            at = merged;
        }
        Ok(acc)
    }

    fn children(&self, lanes: &[TermId], pick: impl Fn(&Node) -> TermId) -> Vec<TermId> {
        lanes.iter().map(|&t| pick(self.terms.node(t))).collect()
    }

    fn one_shape(&mut self, shape: &Shape, lanes: &[TermId]) -> Result<ValueRef, ExpandError> {
        let n = lanes.len() as u32;
        let w = self.terms.width(lanes[0]);
        let ty = VTy::vector(n, w);
        match shape.clone() {
            Shape::Lit => {
                let values: Vec<BigUint> =
                    lanes.iter().map(|&t| self.terms.literal_of(t).cloned().unwrap_or_default()).collect();
                self.constant(&values, w)
            }
            Shape::Leaf => self.gather(lanes),
            Shape::Extract { hi, lo, from } => {
                let xs = self.children(lanes, |n| if let Node::Extract { x, .. } = n { *x } else { unreachable!() });
                let mut v = self.vectorize(&xs)?;
                if lo > 0 {
                    let by = self.splat(u64::from(lo), n, from)?;
                    v = self.push("arith.shrui", vec![v, by], vec![], VTy::vector(n, from))?;
                }
                debug_assert!(hi - lo + 1 == w);
                self.push("arith.trunci", vec![v], vec![], ty)
            }
            Shape::Ext { signed, .. } => {
                let xs = self.children(lanes, |n| if let Node::Ext { x, .. } = n { *x } else { unreachable!() });
                let v = self.vectorize(&xs)?;
                self.push(if signed { "arith.extsi" } else { "arith.extui" }, vec![v], vec![], ty)
            }
            Shape::Concat { hi, lo } => self.concat(lanes, hi, lo),
            Shape::Bin(op) => self.binary(op, lanes),
            Shape::Not => {
                let xs = self.children(lanes, |n| if let Node::Not(x) = n { *x } else { unreachable!() });
                let v = self.vectorize(&xs)?;
                let ones = self.constant(&vec![(BigUint::one() << w) - BigUint::one(); n as usize], w)?;
                self.push("arith.xori", vec![v, ones], vec![], ty)
            }
            Shape::Cmp(op, _) => {
                let a = self.children(lanes, |n| if let Node::Cmp { a, .. } = n { *a } else { unreachable!() });
                let b = self.children(lanes, |n| if let Node::Cmp { b, .. } = n { *b } else { unreachable!() });
                let (a, b) = (self.vectorize(&a)?, self.vectorize(&b)?);
                self.compare(op, a, b)
            }
            Shape::Ite => self.select(lanes),
        }
    }

    pub(super) fn compare(&mut self, op: BvCmp, a: ValueRef, b: ValueRef) -> Result<ValueRef, ExpandError> {
        let predicate = match op {
            BvCmp::Eq => 0,
            BvCmp::Slt => 2,
            BvCmp::Sle => 3,
            BvCmp::Ult => 6,
            BvCmp::Ule => 7,
        };
        let ty = VTy::vector(self.ty(a).lanes(), 1);
        self.push("arith.cmpi", vec![a, b], vec![("predicate", format!("{predicate} : i64"))], ty)
    }

    fn concat(&mut self, lanes: &[TermId], hw: u32, lw: u32) -> Result<ValueRef, ExpandError> {
        let n = lanes.len() as u32;
        let ty = VTy::vector(n, hw + lw);
        let his = self.children(lanes, |n| if let Node::Concat { hi, .. } = n { *hi } else { unreachable!() });
        let los = self.children(lanes, |n| if let Node::Concat { lo, .. } = n { *lo } else { unreachable!() });
        if hw == lw {
            let halves: Vec<TermId> = los.iter().zip(&his).flat_map(|(&l, &h)| [l, h]).collect();
            let v = self.vectorize(&halves)?;
            return self.push("vector.bitcast", vec![v], vec![], ty);
        }
        let (h, l) = (self.vectorize(&his)?, self.vectorize(&los)?);
        let h = self.push("arith.extui", vec![h], vec![], ty.clone())?;
        let l = self.push("arith.extui", vec![l], vec![], ty.clone())?;
        let by = self.splat(u64::from(lw), n, hw + lw)?;
        let h = self.push("arith.shli", vec![h, by], vec![], ty.clone())?;
        self.push("arith.ori", vec![h, l], vec![], ty)
    }

    /// `t ? a : b`, or a minimum or maximum where the condition compares
    /// the two it chooses between.
    fn select(&mut self, lanes: &[TermId]) -> Result<ValueRef, ExpandError> {
        let n = lanes.len() as u32;
        let w = self.terms.width(lanes[0]);
        let parts: Vec<(TermId, TermId, TermId)> = lanes
            .iter()
            .map(|&t| if let Node::Ite { c, t, e } = self.terms.node(t) { (*c, *t, *e) } else { unreachable!() })
            .collect();
        if let Some((name, a, b)) = self.extremum(&parts) {
            let (a, b) = (self.vectorize(&a)?, self.vectorize(&b)?);
            return self.push(name, vec![a, b], vec![], VTy::vector(n, w));
        }
        let c: Vec<TermId> = parts.iter().map(|p| p.0).collect();
        let t: Vec<TermId> = parts.iter().map(|p| p.1).collect();
        let e: Vec<TermId> = parts.iter().map(|p| p.2).collect();
        let (c, t, e) = (self.vectorize(&c)?, self.vectorize(&t)?, self.vectorize(&e)?);
        self.push("arith.select", vec![c, t, e], vec![], VTy::vector(n, w))
    }

    /// `cmp(a, b) ? a : b` in every lane (one comparison, one orientation):
    /// the `arith` op and its operands' lanes.
    fn extremum(&self, parts: &[(TermId, TermId, TermId)]) -> Option<(&'static str, Vec<TermId>, Vec<TermId>)> {
        let mut kind = None;
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for &(c, t, e) in parts {
            let Node::Cmp { op, a, b } = self.terms.node(c) else { return None };
            let keeps_less = if (*a, *b) == (t, e) {
                true
            } else if (*a, *b) == (e, t) {
                false
            } else {
                return None;
            };
            let name = match (op, keeps_less) {
                (BvCmp::Ult | BvCmp::Ule, true) => "arith.minui",
                (BvCmp::Ult | BvCmp::Ule, false) => "arith.maxui",
                (BvCmp::Slt | BvCmp::Sle, true) => "arith.minsi",
                (BvCmp::Slt | BvCmp::Sle, false) => "arith.maxsi",
                (BvCmp::Eq, _) => return None,
            };
            if kind.is_some_and(|k| k != name) {
                return None;
            }
            kind = Some(name);
            xs.push(*a);
            ys.push(*b);
        }
        kind.map(|k| (k, xs, ys))
    }

    /// The argument `arg` as a vector of `w`-bit lanes.
    pub(super) fn view(&mut self, arg: usize, w: u32) -> Result<ValueRef, ExpandError> {
        if let Some(v) = self.views.get(&(arg, w)) {
            return Ok(*v);
        }
        let k = self
            .operand_of
            .get(arg)
            .copied()
            .flatten()
            .ok_or(ExpandError::Unsupported(format!("argument {arg} read as a vector but no operand")))?;
        let mut v = ValueRef::Operand(k);
        let ty = self.ty(v);
        if ty.dims.is_empty() {
            v = self.push("vector.broadcast", vec![v], vec![], VTy::vector(1, ty.elem))?;
        } else if ty.dims.len() > 1 {
            v = self.push("vector.shape_cast", vec![v], vec![], VTy::vector(ty.lanes(), ty.elem))?;
        }
        if ty.elem != w {
            v = self.push("vector.bitcast", vec![v], vec![], VTy::vector(ty.bits() / w, w))?;
        }
        self.views.insert((arg, w), v);
        Ok(v)
    }

    /// Lanes that are slices of arguments: each argument viewed as lanes of
    /// a width that divides every slice's width and position, those lanes
    /// picked, and put back together at the slices' width.
    fn gather(&mut self, lanes: &[TermId]) -> Result<ValueRef, ExpandError> {
        let w = self.terms.width(lanes[0]);
        let slices: Vec<(usize, u32)> = lanes
            .iter()
            .map(|&t| match self.terms.node(t) {
                Node::Input { arg } => (*arg, 0),
                Node::Extract { x, lo, .. } => match self.terms.node(*x) {
                    Node::Input { arg } => (*arg, *lo),
                    _ => unreachable!("a leaf slices an argument"),
                },
                _ => unreachable!("a leaf is an argument or a slice of one"),
            })
            .collect();
        let mut g = w;
        for &(arg, lo) in &slices {
            g = gcd(g, lo);
            if let Some(k) = self.operand_of.get(arg).copied().flatten() {
                g = gcd(g, self.program.operand_types[k].bits());
            }
        }
        // Bits inside an argument's lanes are cut from them (truncated,
        // shifted first for middle bits), as code narrows, not picked from a
        // view in narrower lanes; so are slices a view under a byte would
        // pick.
        // The arguments sliced, each once, in order.
        let mut args: Vec<usize> = slices.iter().map(|s| s.0).collect();
        args.sort_unstable();
        args.dedup();
        let inside_lanes = slices.iter().any(|&(arg, _)| self.lane_bits(arg).is_some_and(|e| e > w));
        if (g < 8 && g < w) || inside_lanes {
            if let Some(v) = self.cut_lanes(&slices, &args, w)? {
                return Ok(v);
            }
            // Each argument's slices apart (whole lanes of one, the middle
            // bits of another's), blended.
            if args.len() > 1 {
                let parts = args
                    .iter()
                    .map(|&a| {
                        let at: Vec<usize> = (0..lanes.len()).filter(|&i| slices[i].0 == a).collect();
                        let sub: Vec<TermId> = at.iter().map(|&i| lanes[i]).collect();
                        Ok((self.vectorize(&sub)?, at))
                    })
                    .collect::<Result<Vec<_>, ExpandError>>()?;
                return self.blend(parts);
            }
        }
        let sub = w / g;
        let picks: Vec<(usize, u32)> =
            slices.iter().flat_map(|&(arg, lo)| (0..sub).map(move |s| (arg, lo / g + s))).collect();
        let v = if args.len() <= 2 {
            self.pick(&picks, &args, g)?
        } else {
            let mut parts = Vec::new();
            for &a in &args {
                let at: Vec<usize> = (0..picks.len()).filter(|&i| picks[i].0 == a).collect();
                let sub_picks: Vec<(usize, u32)> = at.iter().map(|&i| picks[i]).collect();
                parts.push((self.pick(&sub_picks, &[a], g)?, at));
            }
            self.blend(parts)?
        };
        if sub == 1 {
            return Ok(v);
        }
        self.push("vector.bitcast", vec![v], vec![], VTy::vector(lanes.len() as u32, w))
    }

    /// The width of argument `arg`'s lanes, if it is a vector.
    fn lane_bits(&self, arg: usize) -> Option<u32> {
        let k = self.operand_of.get(arg).copied().flatten()?;
        let t = &self.program.operand_types[k];
        (!t.dims.is_empty()).then_some(t.elem)
    }

    /// Slices `slices` (argument, lowest bit; the arguments `args`) of width `w`, each inside
    /// one lane of its argument (of one or two arguments whose lanes have
    /// one width) at one offset: those lanes, shifted right by the offset
    /// and truncated, as code narrows a lane or takes its middle bits (a
    /// narrowing shift); `None` where they are not so.
    fn cut_lanes(&mut self, slices: &[(usize, u32)], args: &[usize], w: u32) -> Result<Option<ValueRef>, ExpandError> {
        let Some(e) = self.lane_bits(slices[0].0) else { return Ok(None) };
        let off = slices[0].1 % e;
        let fits = |&(arg, lo): &(usize, u32)| self.lane_bits(arg) == Some(e) && lo % e == off;
        if e <= w || off + w > e || args.len() > 2 || !slices.iter().all(fits) {
            return Ok(None);
        }
        let picks: Vec<(usize, u32)> = slices.iter().map(|&(arg, lo)| (arg, lo / e)).collect();
        let n = picks.len() as u32;
        let mut lanes = self.pick(&picks, args, e)?;
        if off > 0 {
            let by = self.splat(u64::from(off), n, e)?;
            lanes = self.push("arith.shrui", vec![lanes, by], vec![], VTy::vector(n, e))?;
        }
        self.push("arith.trunci", vec![lanes], vec![], VTy::vector(n, w)).map(Some)
    }

    /// The lanes `picks` (argument, lane) of at most two arguments' `g`-bit views.
    fn pick(&mut self, picks: &[(usize, u32)], args: &[usize], g: u32) -> Result<ValueRef, ExpandError> {
        let first = self.view(args[0], g)?;
        let first_lanes = self.ty(first).lanes();
        let n = picks.len() as u32;
        if args.len() == 1 {
            let start = picks[0].1;
            let contiguous = picks.iter().enumerate().all(|(i, p)| p.1 == start + i as u32);
            if contiguous && start == 0 && n == first_lanes {
                return Ok(first);
            }
            if contiguous {
                let attrs = vec![
                    ("offsets", format!("[{start}]")),
                    ("sizes", format!("[{n}]")),
                    ("strides", "[1]".to_string()),
                ];
                return self.push("vector.extract_strided_slice", vec![first], attrs, VTy::vector(n, g));
            }
            let mask = array(picks.iter().map(|p| i64::from(p.1)));
            return self.push("vector.shuffle", vec![first, first], vec![("mask", mask)], VTy::vector(n, g));
        }
        let second = self.view(args[1], g)?;
        let mask = array(picks.iter().map(|p| i64::from(if p.0 == args[0] { p.1 } else { first_lanes + p.1 })));
        self.push("vector.shuffle", vec![first, second], vec![("mask", mask)], VTy::vector(n, g))
    }
}
