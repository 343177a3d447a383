//! Mask forms. An ISA with per-element write masks
//! writes most operations three ways: plain, merge masked
//! (`dst[j] := k[j] ? op[j] : src[j]`) and zero masked
//! (`dst[j] := k[j] ? op[j] : 0`). The masked forms are the plain operation
//! followed by one fixed per-element step, so a class holds all three and the
//! form becomes a property of each member ([`Masking`]). Each ISA says which
//! model its instructions follow ([`MaskModel`]).
//!
//! [`split_mask`] recognizes the masked form in a canonical instruction and
//! returns the plain operation inside it; [`apply_mask`] builds the masked
//! semantics back from a plain operation. The classifier proves
//! `apply_mask(split) == original` for every member it splits.

use crate::sema::ir::{Arg, ArgKind, BinOp, Expr, Place, Semantics, Stmt, StmtKind};
use crate::sema::visit::{child_blocks, walk_semantics_mut};
use num_bigint::BigInt;
use serde::Serialize;

/// How an ISA masks results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskModel {
    /// No masked forms: every instruction is classified whole.
    None,
    /// A mask register operand selects, per result element, the operation's
    /// value or a pass-through (merge) or zero.
    WriteMask,
}

/// How an instruction treats result elements whose mask bit is clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Masking {
    /// No mask: every element is computed.
    None,
    /// Elements with a clear mask bit are taken from a pass-through operand.
    Merge,
    /// Elements with a clear mask bit are zero.
    Zero,
    /// Elements with a clear mask bit are taken from operand `k` of the
    /// operation itself (an accumulator, a shift source, an index vector).
    MergeOperand(usize),
}

impl Masking {
    /// The value of the `masking` attribute: `none`, `merge`, `zero`, `merge_a2`.
    pub fn name(self) -> String {
        match self {
            Masking::None => "none".into(),
            Masking::Merge => "merge".into(),
            Masking::Zero => "zero".into(),
            Masking::MergeOperand(k) => format!("merge_a{k}"),
        }
    }

    /// Operands the form adds after the operation's own: pass-through, mask.
    pub fn extra_operands(self) -> usize {
        match self {
            Masking::None => 0,
            Masking::Merge => 2,
            Masking::Zero | Masking::MergeOperand(_) => 1,
        }
    }
}

/// What the mask step of a masked instruction covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct MaskShape {
    /// Bits of the mask operand.
    pub mask_width: u32,
    /// The result bits one mask bit governs: usually the result's element
    /// width, but bytes of a result typed as 64-bit elements in `gf2p8affine`.
    pub elem_width: u32,
    /// Result elements under the mask, from element 0 (a narrowing result
    /// has fewer than its width holds; the rest stays zero).
    pub elements: u32,
}

/// A masked instruction taken apart.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskSplit {
    /// The instruction without its mask step (and without the mask and
    /// pass-through arguments), not yet re-canonicalized.
    pub plain: Semantics,
    pub masking: Masking,
    /// Index of the mask argument among the instruction's arguments.
    pub mask_arg: usize,
    /// Index of the pass-through argument (merge masking); for
    /// [`Masking::MergeOperand`] it stays an argument of `plain`.
    pub passthrough_arg: Option<usize>,
    /// For each argument of `plain`, its index among the instruction's.
    pub plain_args: Vec<usize>,
    pub shape: MaskShape,
}

/// Finds `FOR j … [locals :=  …] IF k[j] THEN <op> ELSE dst[elem j] := src[elem j] | 0`, where
/// the mask `k` is used nowhere else. When `src` is also an operand of the
/// operation, the masking is [`Masking::MergeOperand`] with its index among
/// `plain`'s arguments.
pub fn split_mask(s: &Semantics) -> Option<MaskSplit> {
    let mut found: Option<(usize, Masking, usize, Option<usize>, MaskShape)> = None;
    for (at, st) in s.body.iter().enumerate() {
        let StmtKind::For { .. } = &st.kind else { continue };
        let Some((body, elements)) = innermost_with_trips(std::slice::from_ref(st)) else { continue };
        // Locals computed for the element (`off := idx[i+2:i] * 32`, a loop
        // filling `tmp8`) may come first.
        let Some((Stmt { kind: StmtKind::If { cond, otherwise, .. }, .. }, prefix)) = body.split_last() else {
            continue;
        };
        if prefix.iter().any(|st| writes(st, &s.result.name) || s.args.iter().any(|a| writes(st, &a.name))) {
            continue;
        }
        let Expr::Bit { base, index } = cond else { continue };
        // The bit is the element's (`k[j]`, `k[i*8+b]` in nested loops):
        // the proof of the split checks that it is.
        let Expr::Var(mask) = base.as_ref() else { continue };
        if matches!(index.as_ref(), Expr::Int(_)) {
            continue;
        }
        let Some(mask_arg) = s.args.iter().position(|a| a.name == *mask && a.kind == ArgKind::Mask) else { continue };
        let [Stmt { kind: StmtKind::Assign { place, value }, .. }] = otherwise.as_slice() else { continue };
        if place.var != s.result.name {
            continue;
        }
        let Some(elem_width) = place.range.as_ref().and_then(|(hi, lo)| span_width(hi, lo)) else { continue };
        let (masking, passthrough) = match value {
            Expr::Int(v) if *v == BigInt::from(0) => (Masking::Zero, None),
            _ => {
                let Some(src) = element_copy(place, value) else { continue };
                let Some(p) = s.args.iter().position(|a| a.name == src && a.kind == ArgKind::Vector) else {
                    continue;
                };
                (Masking::Merge, Some(p))
            }
        };
        if found.is_some() {
            return None;
        }
        let shape = MaskShape { mask_width: s.args[mask_arg].width, elem_width, elements };
        found = Some((at, masking, mask_arg, passthrough, shape));
    }
    let (at, masking, mask_arg, passthrough_arg, shape) = found?;
    let mut plain = s.clone();
    let StmtKind::For { body, .. } = &mut plain.body[at].kind else { unreachable!() };
    let body = innermost_mut(body);
    let StmtKind::If { then, .. } = body.pop().expect("the mask test").kind else { unreachable!() };
    // `tmp := op(…); FOR j: IF k[j] dst[elem j] := tmp[elem j] …`: the
    // operation is what computes `tmp`.
    if let Some(tmp) = copied_local(&then, s).filter(|_| body.is_empty()) {
        plain.body.remove(at);
        rename_var(&mut plain, &tmp, &s.result.name);
    } else {
        body.extend(then);
    }
    if uses(&mut plain, &s.args[mask_arg].name) > 0 {
        return None;
    }
    let operand = passthrough_arg.filter(|&p| uses(&mut plain, &s.args[p].name) > 0);
    let removed: Vec<usize> = std::iter::once(mask_arg).chain(passthrough_arg.filter(|_| operand.is_none())).collect();
    let plain_args: Vec<usize> = (0..s.args.len()).filter(|i| !removed.contains(i)).collect();
    plain.args = plain_args.iter().map(|&i| s.args[i].clone()).collect();
    let masking = match operand {
        Some(p) => Masking::MergeOperand(plain_args.iter().position(|&i| i == p).expect("kept as an argument")),
        None => masking,
    };
    Some(MaskSplit { plain, masking, mask_arg, passthrough_arg, plain_args, shape })
}

/// The width of the bit range `[hi:lo]` when it does not depend on the
/// element (`x + 7` down to `x + 0`).
fn span_width(hi: &Expr, lo: &Expr) -> Option<u32> {
    fn split(e: &Expr) -> (Option<&Expr>, BigInt) {
        match e {
            Expr::Binary { op: BinOp::Add, lhs, rhs } => match rhs.as_ref() {
                Expr::Int(c) => (Some(lhs.as_ref()), c.clone()),
                _ => (Some(e), BigInt::from(0)),
            },
            Expr::Int(c) => (None, c.clone()),
            _ => (Some(e), BigInt::from(0)),
        }
    }
    let ((hb, hc), (lb, lc)) = (split(hi), split(lo));
    if hb != lb {
        return None;
    }
    u32::try_from(hc - lc + 1).ok().filter(|w| *w > 0)
}

/// Whether `st` assigns to `var` anywhere.
fn writes(st: &Stmt, var: &str) -> bool {
    matches!(&st.kind, StmtKind::Assign { place, .. } if place.var == var)
        || child_blocks(st).into_iter().flatten().any(|x| writes(x, var))
}

/// The body of the innermost of directly nested loops (`body` is the
/// outermost loop alone) and how many times it runs, when the bounds are
/// numbers.
fn innermost_with_trips(body: &[Stmt]) -> Option<(&[Stmt], u32)> {
    match body {
        [Stmt { kind: StmtKind::For { body, from: Expr::Int(from), to: Expr::Int(to), .. }, .. }] => {
            let trips = u32::try_from(to - from + 1).ok()?;
            let (inner, more) = innermost_with_trips(body).unwrap_or((body, 1));
            Some((inner, trips.checked_mul(more)?))
        }
        [Stmt { kind: StmtKind::For { .. }, .. }] => None,
        _ => Some((body, 1)),
    }
}

fn innermost_mut(body: &mut Vec<Stmt>) -> &mut Vec<Stmt> {
    if matches!(body.as_slice(), [Stmt { kind: StmtKind::For { .. }, .. }]) {
        let StmtKind::For { body, .. } = &mut body[0].kind else { unreachable!() };
        return innermost_mut(body);
    }
    body
}

/// `x` when `value` is `x[hi:lo]` for the bits `place` writes.
fn element_copy<'e>(place: &Place, value: &'e Expr) -> Option<&'e str> {
    let Expr::Slice { base, hi, lo } = value else { return None };
    let Expr::Var(x) = base.as_ref() else { return None };
    let (place_hi, place_lo) = place.range.as_ref()?;
    (place_hi == hi.as_ref() && place_lo == lo.as_ref()).then_some(x.as_str())
}

/// `[dst[hi:lo] := t[hi:lo]]` with `t` a local: `t`.
fn copied_local(then: &[Stmt], s: &Semantics) -> Option<String> {
    let [Stmt { kind: StmtKind::Assign { place, value }, .. }] = then else { return None };
    let t = element_copy(place, value)?;
    let local = t != s.result.name && s.args.iter().all(|a| a.name != t);
    (local && place.var == s.result.name).then(|| t.to_string())
}

/// Renames variable `from` to `to` everywhere in `s`, helpers included.
pub(super) fn rename_var(s: &mut Semantics, from: &str, to: &str) {
    walk_semantics_mut(
        s,
        &mut |e: &mut Expr| {
            if matches!(e, Expr::Var(v) if v == from) {
                *e = Expr::Var(to.to_string());
            }
        },
        &mut |v: &mut String| {
            if v == from {
                *v = to.to_string();
            }
        },
    );
}

fn uses(s: &mut Semantics, name: &str) -> usize {
    let n = std::cell::Cell::new(0);
    walk_semantics_mut(
        s,
        &mut |e: &mut Expr| {
            if matches!(e, Expr::Var(v) if v == name) {
                n.set(n.get() + 1);
            }
        },
        &mut |v: &mut String| {
            if v == name {
                n.set(n.get() + 1);
            }
        },
    );
    n.get()
}

/// The masked form of `plain`: its arguments, then the pass-through (merge)
/// and a mask; after the operation, every result element `j` under the mask
/// (see [`MaskShape`]) whose mask bit is clear is replaced by the
/// pass-through's element `j` or by zero.
pub fn apply_mask(plain: &Semantics, masking: Masking, shape: &MaskShape) -> Semantics {
    let mut s = plain.clone();
    if masking == Masking::None {
        return s;
    }
    let taken = |n: &str| s.args.iter().any(|a| a.name == n);
    let fresh = |base: &str| (0..).map(|i| format!("{base}{i}")).find(|n| !taken(n)).expect("a free name");
    let (src, k) = match masking {
        Masking::MergeOperand(p) => (s.args[p].name.clone(), fresh("k")),
        _ => (fresh("src"), fresh("k")),
    };
    let result = s.result.clone();
    if masking == Masking::Merge {
        s.args.push(Arg { name: src.clone(), kind: ArgKind::Vector, imm_bits: None, ..result.clone() });
    }
    s.args.push(Arg {
        name: k.clone(),
        kind: ArgKind::Mask,
        width: shape.mask_width,
        elem: crate::sema::ir::ElemType { width: 1, signed: false },
        imm_bits: None,
        imm_range: None,
    });
    let ew = BigInt::from(shape.elem_width.max(1));
    let elements = BigInt::from(shape.elements.max(1));
    let j = || Expr::var("mask_j");
    let lo = || Expr::binary(BinOp::Mul, j(), Expr::Int(ew.clone()));
    let hi = || Expr::binary(BinOp::Add, lo(), Expr::Int(&ew - 1));
    let kept = match masking {
        Masking::Merge | Masking::MergeOperand(_) => {
            Expr::Slice { base: Box::new(Expr::Var(src)), hi: Box::new(hi()), lo: Box::new(lo()) }
        }
        _ => Expr::int(0),
    };
    let stmt = |kind| Stmt { span: Default::default(), kind };
    s.body.push(stmt(StmtKind::For {
        var: "mask_j".into(),
        from: Expr::int(0),
        to: Expr::Int(elements - 1),
        descending: false,
        body: vec![stmt(StmtKind::If {
            cond: Expr::Bit { base: Box::new(Expr::Var(k)), index: Box::new(j()) },
            then: Vec::new(),
            otherwise: vec![stmt(StmtKind::Assign {
                place: Place { var: result.name.clone(), range: Some((hi(), lo())) },
                value: kept,
            })],
        })],
    }));
    s
}
