//! Wraps C's arithmetic puts in that change no value.
//!
//! The translator wraps wherever a C conversion or a 32-bit operation may
//! leave the type's range. Two kinds of those wraps never change a value,
//! and leaving them out lets instructions that differ only in the
//! signedness of an operand (`vdmpyhsat`, `vdmpyhsusat`) read alike:
//!
//! - a wrap inside the operand of another wrap to no more bits, reached
//!   through sums, differences, products, bitwise combinations and left
//!   shifts (the low bits of those depend only on the low bits of their
//!   operands);
//! - a wrap to 32 or 64 bits of a value whose range already fits, where
//!   only the value is read (not as the operand of a bit count, a
//!   complement or a shift by a variable amount).
//!
//! Wraps to 8 or 16 bits stay: those are the casts the source writes.

use crate::classify::canon::linear_form;
use crate::sema::ir::{BinOp, Expr, Stmt, StmtKind, UnOp};
use crate::sema::visit::child_blocks_mut;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Leaves out, everywhere in `body`, the wraps that change no value.
pub fn drop_idle_wraps(body: &mut [Stmt]) {
    for s in body.iter_mut() {
        for block in child_blocks_mut(s) {
            drop_idle_wraps(block);
        }
        match &mut s.kind {
            StmtKind::Assign { place, value } => {
                if let Some((hi, lo)) = &mut place.range {
                    simplify(hi, false);
                    simplify(lo, false);
                }
                simplify(value, false);
            }
            StmtKind::For { from, to, .. } => {
                simplify(from, false);
                simplify(to, false);
            }
            StmtKind::While { cond, .. } | StmtKind::If { cond, .. } => simplify(cond, false),
            StmtKind::Case { scrutinee, .. } => simplify(scrutinee, false),
            StmtKind::Return { value } => simplify(value, false),
            StmtKind::Call { args, .. } => args.iter_mut().for_each(|a| simplify(a, true)),
        }
    }
}

/// Simplifies `e` bottom-up. `width_matters`: `e`'s bit width, not only its
/// value, is read where it is used (an operand of a bit count or a
/// complement, shifted by a variable amount), so a wrap on top stays.
fn simplify(e: &mut Expr, width_matters: bool) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Slice { base, hi, lo } => {
            simplify(base, true);
            simplify(hi, false);
            simplify(lo, false);
        }
        Expr::Bit { base, index } => {
            simplify(base, true);
            simplify(index, false);
        }
        Expr::Unary { op, arg } => simplify(arg, *op == UnOp::Not),
        Expr::Binary { op, lhs, rhs } => {
            let variable_shift = matches!(op, BinOp::Shl | BinOp::Shr) && !matches!(**rhs, Expr::Int(_));
            simplify(lhs, variable_shift);
            simplify(rhs, false);
        }
        Expr::CompareBy { predicate: code, lhs, rhs } | Expr::OperateBy { code, lhs, rhs, .. } => {
            simplify(code, false);
            simplify(lhs, false);
            simplify(rhs, false);
        }
        Expr::Select { cond, then, otherwise } => {
            simplify(cond, false);
            simplify(then, width_matters);
            simplify(otherwise, width_matters);
        }
        Expr::Call { func, args } => {
            let by_value = matches!(func.as_str(), "WrapAs" | "SaturateAs");
            args.iter_mut().for_each(|a| simplify(a, !by_value));
        }
    }
    if let Some((arg, width, signed)) = as_wrap(e) {
        let inner = without_wraps_to(arg.clone(), width);
        let fits =
            !width_matters && width >= 32 && range(&inner).is_some_and(|(lo, hi)| fits_in(&lo, &hi, width, signed));
        *e = if fits { inner } else { wrap(inner, width, signed) };
    }
}

/// `value` reduced modulo 2^`width` by whatever uses it: wraps to at least
/// `width` bits down a chain of operations whose low bits depend only on
/// their operands' low bits are left out.
pub fn without_wraps_to(value: Expr, width: u32) -> Expr {
    if let Some((arg, w, _)) = as_wrap(&value) {
        if w >= width {
            return without_wraps_to(arg.clone(), width);
        }
        return value;
    }
    match value {
        Expr::Binary {
            op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor),
            lhs,
            rhs,
        } => Expr::binary(op, without_wraps_to(*lhs, width), without_wraps_to(*rhs, width)),
        // A shift by a variable amount keeps its operand's width.
        Expr::Binary { op: BinOp::Shl, lhs, rhs } if matches!(*rhs, Expr::Int(_)) => {
            Expr::binary(BinOp::Shl, without_wraps_to(*lhs, width), *rhs)
        }
        Expr::Unary { op: UnOp::Neg, arg } => {
            Expr::Unary { op: UnOp::Neg, arg: Box::new(without_wraps_to(*arg, width)) }
        }
        Expr::Select { cond, then, otherwise } => Expr::Select {
            cond,
            then: Box::new(without_wraps_to(*then, width)),
            otherwise: Box::new(without_wraps_to(*otherwise, width)),
        },
        other => other,
    }
}

fn as_wrap(e: &Expr) -> Option<(&Expr, u32, bool)> {
    match e {
        Expr::Call { func, args } if func == "WrapAs" && args.len() == 3 => {
            let (Expr::Int(w), Expr::Int(unsigned)) = (&args[1], &args[2]) else { return None };
            Some((&args[0], w.to_u32()?, unsigned.is_zero()))
        }
        _ => None,
    }
}

fn wrap(value: Expr, width: u32, signed: bool) -> Expr {
    Expr::Call { func: "WrapAs".into(), args: vec![value, Expr::int(i64::from(width)), Expr::int(i64::from(!signed))] }
}

fn type_range(width: u32, signed: bool) -> (BigInt, BigInt) {
    if signed {
        let half = BigInt::one() << (width - 1);
        (-half.clone(), half - 1)
    } else {
        (BigInt::zero(), (BigInt::one() << width) - 1)
    }
}

fn fits_in(lo: &BigInt, hi: &BigInt, width: u32, signed: bool) -> bool {
    let (min, max) = type_range(width, signed);
    *lo >= min && *hi <= max
}

/// The range of `e`'s value where it follows from its operands alone
/// (variables are unknown).
fn range(e: &Expr) -> Option<(BigInt, BigInt)> {
    if let Some((_, w, signed)) = as_wrap(e) {
        return Some(type_range(w, signed));
    }
    match e {
        Expr::Int(v) => Some((v.clone(), v.clone())),
        Expr::Call { func, args } if func == "AsInteger" && args.len() == 2 => {
            let Expr::Slice { hi, lo, .. } = &args[0] else { return None };
            let (Some((hv, hc)), Some((lv, lc))) = (linear_form(hi), linear_form(lo)) else { return None };
            let width = (hv == lv).then(|| &hc - &lc + 1i32)?.to_u32()?;
            let Expr::Int(unsigned) = &args[1] else { return None };
            (width > 0).then(|| type_range(width, unsigned.is_zero()))
        }
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (range(lhs), range(rhs));
            match op {
                BinOp::Add => {
                    let ((al, ah), (bl, bh)) = (a?, b?);
                    Some((al + bl, ah + bh))
                }
                BinOp::Sub => {
                    let ((al, ah), (bl, bh)) = (a?, b?);
                    Some((al - bh, ah - bl))
                }
                BinOp::Mul => {
                    let ((al, ah), (bl, bh)) = (a?, b?);
                    let c = [&al * &bl, &al * &bh, &ah * &bl, &ah * &bh];
                    Some((c.iter().min()?.clone(), c.iter().max()?.clone()))
                }
                BinOp::Shr => {
                    let ((al, ah), (bl, _)) = (a?, b?);
                    let n = bl.to_usize().filter(|_| !bl.is_negative())?;
                    let n_hi = range(rhs)?.1.to_usize()?;
                    // Shifting right moves toward zero's side: the extremes
                    // are the value unshifted and shifted the most.
                    let lo = (&al >> n_hi).min(&al >> n);
                    let hi = (&ah >> n).max(&ah >> n_hi);
                    Some((lo, hi))
                }
                BinOp::And => match (a, b) {
                    (Some((al, ah)), _) if !al.is_negative() => Some((BigInt::zero(), ah)),
                    (_, Some((bl, bh))) if !bl.is_negative() => Some((BigInt::zero(), bh)),
                    _ => None,
                },
                _ => None,
            }
        }
        Expr::Select { then, otherwise, .. } => {
            let ((tl, th), (ol, oh)) = (range(then)?, range(otherwise)?);
            Some((tl.min(ol), th.max(oh)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(signed: bool) -> Expr {
        let slice =
            Expr::Slice { base: Box::new(Expr::var("a")), hi: Box::new(Expr::int(15)), lo: Box::new(Expr::int(0)) };
        Expr::Call { func: "AsInteger".into(), args: vec![slice, Expr::int(i64::from(!signed))] }
    }

    fn simplified(e: Expr) -> Expr {
        let mut body = vec![Stmt {
            span: Default::default(),
            kind: crate::sema::ir::StmtKind::Assign {
                place: crate::sema::ir::Place { var: "x".into(), range: None },
                value: e,
            },
        }];
        drop_idle_wraps(&mut body);
        match body.remove(0).kind {
            crate::sema::ir::StmtKind::Assign { value, .. } => value,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_product_that_fits_loses_its_wraps() {
        // (s32)(u32)(s32)s16 * u16, as C computes a signed-by-unsigned product.
        let widened = wrap(lane(true), 32, false);
        let product = wrap(Expr::binary(BinOp::Mul, widened, lane(false)), 32, false);
        assert_eq!(simplified(wrap(product, 32, true)), Expr::binary(BinOp::Mul, lane(true), lane(false)));
    }

    #[test]
    fn a_wrap_that_can_change_the_value_stays() {
        let sum = Expr::binary(BinOp::Mul, lane(false), lane(false));
        let e = wrap(sum.clone(), 16, false);
        assert_eq!(simplified(e.clone()), e);
        let square = wrap(Expr::binary(BinOp::Mul, wrap(sum, 32, false), lane(false)), 32, true);
        assert!(matches!(as_wrap(&simplified(square)), Some((_, 32, true))));
    }
}
