//! Constant and linear C expressions: loop bounds, steps and view indices.

use super::super::ast::{CBinary, CExpr, CExprKind, CUnary};
use super::super::ctype::INT;
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// The value of a constant expression (loop bounds, steps), if it is one.
pub fn const_value(e: &CExpr) -> Option<BigInt> {
    Some(match &e.kind {
        CExprKind::Int(v, _) => v.clone(),
        CExprKind::Cast(_, a) => const_value(a)?,
        CExprKind::Unary(CUnary::Neg, a) => -const_value(a)?,
        CExprKind::Unary(CUnary::Plus, a) => const_value(a)?,
        CExprKind::Binary(op, a, b) => {
            let (x, y) = (const_value(a)?, const_value(b)?);
            match op {
                CBinary::Add => x + y,
                CBinary::Sub => x - y,
                CBinary::Mul => x * y,
                CBinary::Div if !y.is_zero() => x / y,
                CBinary::Rem if !y.is_zero() => x % y,
                CBinary::Shl => x << y.to_usize()?,
                CBinary::Shr => x >> y.to_usize()?,
                CBinary::Lt => BigInt::from(u8::from(x < y)),
                CBinary::Le => BigInt::from(u8::from(x <= y)),
                CBinary::Gt => BigInt::from(u8::from(x > y)),
                CBinary::Ge => BigInt::from(u8::from(x >= y)),
                CBinary::Eq => BigInt::from(u8::from(x == y)),
                CBinary::Ne => BigInt::from(u8::from(x != y)),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// `e` with the variable `var` replaced by the constant `value`.
pub(super) fn substitute(e: &CExpr, var: &str, value: &BigInt) -> CExpr {
    let sub = |x: &CExpr| Box::new(substitute(x, var, value));
    let kind = match &e.kind {
        CExprKind::Name(n) if n == var => CExprKind::Int(value.clone(), INT),
        CExprKind::Binary(op, a, b) => CExprKind::Binary(*op, sub(a), sub(b)),
        CExprKind::Unary(op, a) => CExprKind::Unary(*op, sub(a)),
        CExprKind::Cast(t, a) => CExprKind::Cast(*t, sub(a)),
        other => other.clone(),
    };
    CExpr { span: e.span, kind }
}

/// `e` as `constant + Σ coeff·name` over names, if it is linear.
pub(super) fn linear(e: &CExpr) -> Option<(BigInt, BTreeMap<String, BigInt>)> {
    let mut terms = BTreeMap::new();
    Some(match &e.kind {
        CExprKind::Int(v, _) => (v.clone(), terms),
        CExprKind::Name(n) => {
            terms.insert(n.clone(), BigInt::one());
            (BigInt::zero(), terms)
        }
        CExprKind::Binary(op @ (CBinary::Add | CBinary::Sub), a, b) => {
            let (ca, mut ta) = linear(a)?;
            let (cb, tb) = linear(b)?;
            let sign = if *op == CBinary::Add { BigInt::one() } else { -BigInt::one() };
            for (n, c) in tb {
                *ta.entry(n).or_insert_with(BigInt::zero) += &sign * c;
            }
            ta.retain(|_, c| !c.is_zero());
            (ca + sign * cb, ta)
        }
        CExprKind::Binary(CBinary::Mul, a, b) => {
            if let Some(k) = const_value(a) {
                let (c, t) = linear(b)?;
                (c * &k, t.into_iter().map(|(n, v)| (n, v * &k)).collect())
            } else {
                let k = const_value(b)?;
                let (c, t) = linear(a)?;
                (c * &k, t.into_iter().map(|(n, v)| (n, v * &k)).collect())
            }
        }
        _ => return None,
    })
}
