//! C `for` loops: a constant start, bound and stride, unrolled into the IR's
//! loops or into one statement list per trip.

use super::super::ast::{CBinary, CExpr, CExprKind, CStmt, CStmtKind};
use super::super::ctype::INT;
use super::constant::{const_value, substitute};
use super::{add, Local, Translator, T};
use crate::sema::ir::{BinOp, Expr, Place, Span, Stmt, StmtKind};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

impl Translator {
    /// `for (v = A; v < B; v += S)` with constant `A`, `B`, `S`.
    pub(super) fn for_loop(
        &mut self,
        span: Span,
        init: Option<&CStmt>,
        cond: Option<&CExpr>,
        step: Option<&CExpr>,
        body: &CStmt,
        out: &mut Vec<Stmt>,
    ) -> T<()> {
        let (var, from) = self.loop_start(span, init)?;
        let Some(mut from) = const_value(from) else { return self.unsupported_loop(span, "the start is not constant") };
        // `for (v = A; (v >>= 1) > 0; )`: the step happens before each test.
        let stepped_cond;
        let (cond, step) = match self.step_in_condition(span, &var, &from, cond, step)? {
            Some((first, c, s)) => {
                from = first;
                stepped_cond = c;
                (Some(&stepped_cond), Some(s))
            }
            None => (cond, step),
        };
        if let Some(CExprKind::Assign(Some(CBinary::Shl | CBinary::Shr | CBinary::Mul), p, _)) = step.map(|s| &s.kind) {
            if matches!(&p.kind, CExprKind::Name(n) if *n == var) {
                return self.unrolled_loop(span, &var, from, cond, step.expect("matched"), body, out);
            }
        }
        let last = self.loop_last(span, &var, cond)?;
        let (stride, written_stride) = self.loop_stride(span, &var, step)?;
        let stepped = written_stride || !stride.is_one();
        let count = if last < from { BigInt::zero() } else { (&last - &from) / &stride + 1 };
        let top: BigInt = &from + (&count - 1) * &stride;
        let ty = self.locals.get(&var).map_or(INT, |l| l.ty);
        self.locals.insert(var.clone(), Local { ty, range: Some((from.clone(), top.max(from.clone()))) });
        let mut inner = Vec::new();
        let counter = if !stepped {
            var.clone()
        } else {
            self.fresh += 1;
            let k = format!("{var}_step{}", self.fresh);
            let value =
                add(Expr::Int(from.clone()), Expr::binary(BinOp::Mul, Expr::var(&k), Expr::Int(stride.clone())));
            inner.push(Stmt { span, kind: StmtKind::Assign { place: Place { var: var.clone(), range: None }, value } });
            k
        };
        self.stmt(body, &mut inner)?;
        self.locals.insert(var.clone(), Local { ty, range: None });
        let (lo, hi) = if stepped { (BigInt::zero(), count - 1) } else { (from, last) };
        out.push(Stmt {
            span,
            kind: StmtKind::For {
                var: counter,
                from: Expr::Int(lo),
                to: Expr::Int(hi),
                descending: false,
                body: inner,
            },
        });
        Ok(())
    }

    /// The failure of a `for` loop this translation does not handle.
    pub(super) fn unsupported_loop<X>(&self, span: Span, what: &str) -> T<X> {
        self.fail(span, format!("unsupported `for` loop: {what}"))
    }

    /// The loop variable and its start, from the initializer (`int v = A` or
    /// `v = A`); a declared variable becomes a local.
    pub(super) fn loop_start<'e>(&mut self, span: Span, init: Option<&'e CStmt>) -> T<(String, &'e CExpr)> {
        match init.map(|s| &s.kind) {
            Some(CStmtKind::Decl(ty, name, Some(e))) => {
                self.locals.insert(name.clone(), Local { ty: *ty, range: None });
                Ok((name.clone(), e))
            }
            Some(CStmtKind::Expr(CExpr { kind: CExprKind::Assign(None, place, e), .. })) => match &place.kind {
                CExprKind::Name(n) => Ok((n.clone(), e.as_ref())),
                _ => self.unsupported_loop(span, "the initializer must set a variable"),
            },
            _ => self.unsupported_loop(span, "no initializer"),
        }
    }

    /// A loop with no step whose condition steps the variable
    /// (`(v >>= 1) > 0`): the start after the first step, the condition
    /// without the step, and the step.
    pub(super) fn step_in_condition<'e>(
        &self,
        span: Span,
        var: &str,
        from: &BigInt,
        cond: Option<&'e CExpr>,
        step: Option<&'e CExpr>,
    ) -> T<Option<(BigInt, CExpr, &'e CExpr)>> {
        let (Some(CExprKind::Binary(op, l, bound)), None) = (cond.map(|c| &c.kind), step) else { return Ok(None) };
        match &l.kind {
            CExprKind::Assign(Some(sop), p, by) if matches!(&p.kind, CExprKind::Name(n) if *n == var) => {
                let first = CExpr {
                    span,
                    kind: CExprKind::Binary(
                        *sop,
                        Box::new(CExpr { span, kind: CExprKind::Int(from.clone(), INT) }),
                        by.clone(),
                    ),
                };
                let Some(f) = const_value(&first) else {
                    return self.unsupported_loop(span, "the step is not constant");
                };
                let stepped_cond = CExpr { span, kind: CExprKind::Binary(*op, p.clone(), bound.clone()) };
                Ok(Some((f, stepped_cond, l.as_ref())))
            }
            _ => Ok(None),
        }
    }

    /// The last value of the loop variable, from `var < N` or `var <= N`.
    pub(super) fn loop_last(&self, span: Span, var: &str, cond: Option<&CExpr>) -> T<BigInt> {
        let (op, bound) = match cond.map(|c| &c.kind) {
            Some(CExprKind::Binary(op @ (CBinary::Lt | CBinary::Le), l, r)) if matches!(&l.kind, CExprKind::Name(n) if *n == var) => {
                (*op, r.as_ref())
            }
            _ => return self.unsupported_loop(span, "the condition must be `var < N` or `var <= N`"),
        };
        let Some(mut last) = const_value(bound) else {
            return self.unsupported_loop(span, "the bound is not constant");
        };
        if op == CBinary::Lt {
            last -= 1;
        }
        Ok(last)
    }

    /// The stride of `var++` or `var += S`, and whether it is written out.
    /// `var += S` keeps its stride even when S is 1, so that the byte form
    /// of an operation reads like its halfword and word forms.
    pub(super) fn loop_stride(&self, span: Span, var: &str, step: Option<&CExpr>) -> T<(BigInt, bool)> {
        match step.map(|s| &s.kind) {
            Some(CExprKind::Step(p, 1)) if matches!(&p.kind, CExprKind::Name(n) if *n == var) => {
                Ok((BigInt::one(), false))
            }
            Some(CExprKind::Assign(Some(CBinary::Add), p, by)) if matches!(&p.kind, CExprKind::Name(n) if *n == var) => {
                match const_value(by) {
                    Some(s) if s.is_positive() => Ok((s, true)),
                    _ => self.unsupported_loop(span, "the step is not a positive constant"),
                }
            }
            _ => self.unsupported_loop(span, "the step must be `var++` or `var += S`"),
        }
    }

    /// A loop whose counter is not stepped by addition (`offset <<= 1`),
    /// unrolled: the body once per counter value, the counter set before it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn unrolled_loop(
        &mut self,
        span: Span,
        var: &str,
        from: BigInt,
        cond: Option<&CExpr>,
        step: &CExpr,
        body: &CStmt,
        out: &mut Vec<Stmt>,
    ) -> T<()> {
        let CExprKind::Assign(Some(op), _, by) = &step.kind else { unreachable!("checked by the caller") };
        let at = |e: &CExpr, v: &BigInt| const_value(&substitute(e, var, v));
        let mut value = from;
        let mut count = 0;
        let ty = self.locals.get(var).map_or(INT, |l| l.ty);
        loop {
            let holds = match cond {
                Some(c) => at(c, &value),
                None => Some(BigInt::one()),
            };
            match holds {
                Some(h) if h.is_zero() => break,
                Some(_) => {}
                None => return self.fail(span, "unsupported `for` loop: the condition is not constant"),
            }
            count += 1;
            if count > 4096 {
                return self.fail(span, "unsupported `for` loop: more than 4096 iterations");
            }
            self.locals.insert(var.to_string(), Local { ty, range: Some((value.clone(), value.clone())) });
            out.push(Stmt {
                span,
                kind: StmtKind::Assign {
                    place: Place { var: var.to_string(), range: None },
                    value: Expr::Int(value.clone()),
                },
            });
            self.stmt(body, out)?;
            let next = CExpr {
                span,
                kind: CExprKind::Binary(
                    *op,
                    Box::new(CExpr { span, kind: CExprKind::Name(var.to_string()) }),
                    by.clone(),
                ),
            };
            value = match at(&next, &value) {
                Some(v) => v,
                None => return self.fail(span, "unsupported `for` loop: the step is not constant"),
            };
        }
        self.locals.insert(var.to_string(), Local { ty, range: None });
        Ok(())
    }
}
