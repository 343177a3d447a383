//! From the C subset to the semantics IR.
//!
//! Two readings share this translator. [`Arith::C`] gives Qualcomm's
//! definitions the meaning C gives them on the host QEMU runs on: integer
//! promotions, the usual arithmetic conversions, wrap-around at the type's
//! width, arithmetic right shifts. The IR computes exactly, so the
//! translator tracks each value's C type and range and wraps
//! (`WrapAs(x, width, unsigned)`) only where C would lose bits.
//! [`Arith::Exact`] reads the manual's pseudocode as mathematics: no
//! wrapping except where a value is stored.
//!
//! Registers are views: `VuV.h[i]` is bits `16i+15 … 16i` of `Vu`,
//! `VxxV.v[1]` the upper half of a pair, `QdV.w[k]` 32 bits of a predicate.

use super::ast::{CBinary, CExpr, CExprKind, CStmt, CStmtKind, CUnary};
use super::ctype::{CType, INT, LLONG};
use crate::sema::ir::{BinOp, Expr, Place, Span, Stmt, StmtKind, UnOp};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    C,
    Exact,
}

/// Where a register name of the source lives in the IR.
#[derive(Clone, Debug, PartialEq)]
pub struct RegBinding {
    /// IR variable (an argument, or the result).
    pub var: String,
    /// First bit within it.
    pub offset: u32,
    pub width: u32,
    /// How a whole read reads it (scalars, immediates); `None` for vectors.
    pub whole: Option<CType>,
    /// Whether the instruction writes it (outputs, accumulators).
    pub writable: bool,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct TranslateError {
    pub span: Span,
    pub message: String,
}

type T<X> = Result<X, TranslateError>;

/// A translated expression: its IR, C type and the range of its value.
#[derive(Clone, Debug)]
struct Typed {
    ir: Expr,
    ty: CType,
    lo: BigInt,
    hi: BigInt,
}

/// A register region being read or written.
#[derive(Clone, Debug)]
struct View {
    var: String,
    /// The first bit, as an IR integer expression.
    lo: Expr,
    /// Width when known.
    width: Option<u32>,
    /// Lane type when the view is an element (`.h[i]`).
    lane: Option<CType>,
}

struct Local {
    ty: CType,
    range: Option<(BigInt, BigInt)>,
}

pub struct Translator {
    regs: BTreeMap<String, RegBinding>,
    arith: Arith,
    locals: BTreeMap<String, Local>,
    /// Fresh-name counter for stepped loops.
    fresh: usize,
}

/// A comparison as a predicate number and two operands
/// ([`Expr::CompareBy`]), as LLVM's `icmp` carries its predicate: `a < b`
/// and `a == b` are then one operation with different numbers.
fn compare(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let code = crate::sema::ir::code_of_comparison(op).expect("a comparison");
    Expr::CompareBy { predicate: Box::new(Expr::int(i64::from(code))), lhs: Box::new(lhs), rhs: Box::new(rhs) }
}

/// Whether `e` is 0 or 1 by construction (a comparison or a logical
/// connective), so that a choice on it needs no `!= 0`.
fn is_truth_value(e: &Expr) -> bool {
    matches!(e, Expr::CompareBy { .. } | Expr::Binary { op: BinOp::LogicalAnd | BinOp::LogicalOr, .. })
}

fn call(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Call { func: name.to_string(), args }
}

fn add(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Int(x), _) if x.is_zero() => b,
        (_, Expr::Int(y)) if y.is_zero() => a,
        (Expr::Int(x), Expr::Int(y)) => Expr::Int(x + y),
        _ => Expr::binary(BinOp::Add, a, b),
    }
}

fn mul(a: Expr, k: i64) -> Expr {
    match &a {
        Expr::Int(x) => Expr::Int(x * k),
        _ if k == 1 => a,
        _ => Expr::binary(BinOp::Mul, a, Expr::int(k)),
    }
}

/// The C type of a lane view field.
fn lane_type(field: &str) -> Option<CType> {
    Some(match field {
        "b" => CType::new(8, true),
        "ub" => CType::new(8, false),
        "h" => CType::new(16, true),
        "uh" => CType::new(16, false),
        "w" => CType::new(32, true),
        "uw" => CType::new(32, false),
        "ud" => CType::new(64, false),
        "d" => CType::new(64, true),
        _ => return None,
    })
}

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
fn substitute(e: &CExpr, var: &str, value: &BigInt) -> CExpr {
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
fn linear(e: &CExpr) -> Option<(BigInt, BTreeMap<String, BigInt>)> {
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

impl Translator {
    pub fn new(regs: &BTreeMap<String, RegBinding>, arith: Arith) -> Self {
        Translator { regs: regs.clone(), arith, locals: BTreeMap::new(), fresh: 0 }
    }

    fn fail<X>(&self, span: Span, message: impl Into<String>) -> T<X> {
        Err(TranslateError { span, message: message.into() })
    }

    pub fn block(&mut self, stmts: &[CStmt]) -> T<Vec<Stmt>> {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt(s, &mut out)?;
        }
        Ok(out)
    }

    fn stmt(&mut self, s: &CStmt, out: &mut Vec<Stmt>) -> T<()> {
        let span = s.span;
        match &s.kind {
            CStmtKind::Empty => {}
            CStmtKind::Block(b) => {
                for s in b {
                    self.stmt(s, out)?;
                }
            }
            CStmtKind::RegDecl(width, name) => {
                if self.regs.contains_key(name) || self.locals.contains_key(name) {
                    return self.fail(span, format!("`{name}` is declared twice"));
                }
                let binding = RegBinding { var: name.clone(), offset: 0, width: *width, whole: None, writable: true };
                self.regs.insert(name.clone(), binding);
                let zero = call("WrapAs", vec![Expr::int(0), Expr::int(i64::from(*width)), Expr::int(1)]);
                out.push(Stmt {
                    span,
                    kind: StmtKind::Assign { place: Place { var: name.clone(), range: None }, value: zero },
                });
            }
            CStmtKind::Decl(ty, name, init) => {
                if self.regs.contains_key(name) {
                    return self.fail(span, format!("`{name}` is declared but names a register"));
                }
                self.locals.insert(name.clone(), Local { ty: *ty, range: None });
                if let Some(init) = init {
                    let v = self.expr(init)?;
                    let v = self.convert(v, *ty);
                    out.push(Stmt {
                        span,
                        kind: StmtKind::Assign { place: Place { var: name.clone(), range: None }, value: v.ir },
                    });
                }
            }
            CStmtKind::Expr(e) => self.effect(e, out)?,
            CStmtKind::If(cond, then, otherwise) => {
                let c = self.expr(cond)?;
                let mut t = Vec::new();
                self.stmt(then, &mut t)?;
                let mut o = Vec::new();
                if let Some(e) = otherwise {
                    self.stmt(e, &mut o)?;
                }
                out.push(Stmt { span, kind: StmtKind::If { cond: c.ir, then: t, otherwise: o } });
            }
            CStmtKind::For { init, cond, step, body } => {
                self.for_loop(span, init.as_deref(), cond.as_ref(), step.as_ref(), body, out)?
            }
        }
        Ok(())
    }

    /// `for (v = A; v < B; v += S)` with constant `A`, `B`, `S`.
    fn for_loop(
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
    fn unsupported_loop<X>(&self, span: Span, what: &str) -> T<X> {
        self.fail(span, format!("unsupported `for` loop: {what}"))
    }

    /// The loop variable and its start, from the initializer (`int v = A` or
    /// `v = A`); a declared variable becomes a local.
    fn loop_start<'e>(&mut self, span: Span, init: Option<&'e CStmt>) -> T<(String, &'e CExpr)> {
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
    fn step_in_condition<'e>(
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
    fn loop_last(&self, span: Span, var: &str, cond: Option<&CExpr>) -> T<BigInt> {
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
    fn loop_stride(&self, span: Span, var: &str, step: Option<&CExpr>) -> T<(BigInt, bool)> {
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
    fn unrolled_loop(
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

    /// An expression evaluated for its effect: assignments and steps.
    fn effect(&mut self, e: &CExpr, out: &mut Vec<Stmt>) -> T<()> {
        match &e.kind {
            CExprKind::Assign(op, place, value) => {
                let v = self.expr(value)?;
                let v = match op {
                    None => v,
                    Some(op) => {
                        let old = self.expr(place)?;
                        self.binary(e.span, *op, old, v)?
                    }
                };
                self.store(e.span, place, v, out)
            }
            CExprKind::Step(place, by) => {
                let old = self.expr(place)?;
                let one = self.literal(BigInt::from(*by), INT);
                let v = self.binary(e.span, CBinary::Add, old, one)?;
                self.store(e.span, place, v, out)
            }
            CExprKind::Binary(CBinary::Or | CBinary::And, ..) | CExprKind::Call(..) => {
                self.fail(e.span, "an expression statement must assign")
            }
            _ => self.fail(e.span, "an expression statement must assign"),
        }
    }

    fn store(&mut self, span: Span, place: &CExpr, v: Typed, out: &mut Vec<Stmt>) -> T<()> {
        if let CExprKind::Name(n) = &place.kind {
            if let Some(local) = self.locals.get(n) {
                let ty = local.ty;
                let v = self.convert(v, ty);
                out.push(Stmt {
                    span,
                    kind: StmtKind::Assign { place: Place { var: n.clone(), range: None }, value: v.ir },
                });
                return Ok(());
            }
        }
        let Some(view) = self.view(place)? else {
            return self.fail(place.span, "cannot assign to this expression");
        };
        let Some(width) = view.width else {
            return self.fail(place.span, "the assigned bit range has no constant width");
        };
        if !self.regs.values().any(|r| r.var == view.var && r.writable) {
            return self.fail(place.span, "assignment to an input register");
        }
        let hi = add(view.lo.clone(), Expr::int(i64::from(width) - 1));
        // A wrap to at least the lane's bits changes none of the bits
        // stored (the signed and unsigned forms then store alike).
        let value = super::wraps::without_wraps_to(v.ir, width);
        out.push(Stmt {
            span,
            kind: StmtKind::Assign { place: Place { var: view.var, range: Some((hi, view.lo)) }, value },
        });
        Ok(())
    }

    /// The register region `e` denotes, if it denotes one.
    fn view(&mut self, e: &CExpr) -> T<Option<View>> {
        Ok(Some(match &e.kind {
            CExprKind::Name(n) => match self.regs.get(n) {
                Some(r) => {
                    View { var: r.var.clone(), lo: Expr::int(i64::from(r.offset)), width: Some(r.width), lane: None }
                }
                None => return Ok(None),
            },
            CExprKind::Index(base, index) => {
                let CExprKind::Member(inner, field) = &base.kind else { return Ok(None) };
                let Some(outer) = self.view(inner)? else { return Ok(None) };
                let (width, lane) = match (field.as_str(), lane_type(field)) {
                    ("v", _) => (1024, None),
                    (_, Some(t)) => (t.width, Some(t)),
                    _ => return self.fail(base.span, format!("unknown register view `.{field}`")),
                };
                let idx = self.expr(index)?;
                let lo = add(outer.lo, mul(idx.ir, i64::from(width)));
                View { var: outer.var, lo, width: Some(width), lane }
            }
            CExprKind::BitRange(base, hi, lo) => {
                let Some(outer) = self.view(base)? else { return Ok(None) };
                let width = match (linear(hi), linear(lo)) {
                    (Some((ch, th)), Some((cl, tl))) if th == tl => (ch - cl + BigInt::one()).to_u32(),
                    _ => None,
                };
                let l = self.expr(lo)?;
                View { var: outer.var, lo: add(outer.lo, l.ir), width, lane: None }
            }
            CExprKind::Member(base, field) if self.locals.contains_key(field) => {
                // The manual's `Q.i`: bit `i` of a predicate.
                let Some(outer) = self.view(base)? else { return Ok(None) };
                View { var: outer.var, lo: add(outer.lo, Expr::var(field)), width: Some(1), lane: None }
            }
            _ => return Ok(None),
        }))
    }

    fn literal(&self, v: BigInt, ty: CType) -> Typed {
        Typed { ir: Expr::Int(v.clone()), ty, lo: v.clone(), hi: v }
    }

    fn full(&self, ir: Expr, ty: CType) -> Typed {
        Typed { ir, ty, lo: ty.min(), hi: ty.max() }
    }

    /// C's conversion to `ty`: the value modulo 2^width, unless it already fits.
    fn convert(&self, v: Typed, ty: CType) -> Typed {
        if self.arith == Arith::Exact || (v.lo >= ty.min() && v.hi <= ty.max()) {
            return Typed { ty, ..v };
        }
        self.full(call("WrapAs", vec![v.ir, Expr::int(i64::from(ty.width)), Expr::int(i64::from(!ty.signed))]), ty)
    }

    /// The value as exactly `ty.width` bits (for shifts by a variable amount).
    fn exact_width(&self, v: Typed, ty: CType) -> Typed {
        let keep = Typed { ty, ..v.clone() };
        let ir = call("WrapAs", vec![v.ir, Expr::int(i64::from(ty.width)), Expr::int(i64::from(!ty.signed))]);
        if self.arith == Arith::Exact {
            return Typed { ir, ..keep };
        }
        Typed { ir, ..self.convert(keep, ty) }
    }

    fn fit(&self, ir: Expr, ty: CType, lo: BigInt, hi: BigInt) -> Typed {
        self.convert(Typed { ir, ty, lo, hi }, ty)
    }

    fn expr(&mut self, e: &CExpr) -> T<Typed> {
        let span = e.span;
        match &e.kind {
            CExprKind::Int(v, ty) => Ok(self.literal(v.clone(), *ty)),
            CExprKind::Name(n) => {
                if let Some(local) = self.locals.get(n) {
                    let (lo, hi) = local.range.clone().unwrap_or((local.ty.min(), local.ty.max()));
                    return Ok(Typed { ir: Expr::var(n), ty: local.ty, lo, hi });
                }
                match self.regs.get(n) {
                    Some(RegBinding { whole: Some(ty), var, offset: 0, .. }) => Ok(self.full(Expr::var(var), *ty)),
                    Some(_) => self.read_view(span, e),
                    None => self.fail(span, format!("unknown name `{n}`")),
                }
            }
            CExprKind::Index(..) | CExprKind::BitRange(..) | CExprKind::Member(..) => self.read_view(span, e),
            CExprKind::Cast(ty, a) => {
                let v = self.expr(a)?;
                // A cast the source writes to a narrower type is kept even
                // where the value fits, so signed and unsigned forms (whose
                // values fit differently) read alike.
                if self.arith == Arith::C && ty.width < v.ty.width && ty.min() <= v.lo && v.hi <= ty.max() {
                    let ir =
                        call("WrapAs", vec![v.ir, Expr::int(i64::from(ty.width)), Expr::int(i64::from(!ty.signed))]);
                    return Ok(Typed { ir, ty: *ty, ..v });
                }
                Ok(self.convert(v, *ty))
            }
            CExprKind::Unary(op, a) => {
                let v = self.expr(a)?;
                self.unary(*op, v)
            }
            CExprKind::Binary(op, a, b) => {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                self.binary(span, *op, x, y)
            }
            CExprKind::Ternary(c, a, b) => {
                let c = self.expr(c)?;
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                let ty = CType::common(x.ty, y.ty);
                let (x, y) = (self.convert(x, ty), self.convert(y, ty));
                let (lo, hi) = (x.lo.clone().min(y.lo.clone()), x.hi.clone().max(y.hi.clone()));
                let cond = if is_truth_value(&c.ir) { c.ir } else { compare(BinOp::Ne, c.ir, Expr::int(0)) };
                let ir = Expr::Select { cond: Box::new(cond), then: Box::new(x.ir), otherwise: Box::new(y.ir) };
                Ok(Typed { ir, ty, lo, hi })
            }
            CExprKind::Call(name, args) => self.builtin(span, name, args),
            CExprKind::Assign(..) | CExprKind::Step(..) => self.fail(span, "an assignment inside an expression"),
        }
    }

    fn read_view(&mut self, span: Span, e: &CExpr) -> T<Typed> {
        let Some(v) = self.view(e)? else {
            return self.fail(span, "not a register or variable");
        };
        let Some(width) = v.width else {
            return self.fail(span, "bit range without a constant width");
        };
        let ty = v.lane.unwrap_or(CType::new(width, false));
        let hi = add(v.lo.clone(), Expr::int(i64::from(width) - 1));
        let slice = Expr::Slice { base: Box::new(Expr::var(&v.var)), hi: Box::new(hi), lo: Box::new(v.lo) };
        let ir = call("AsInteger", vec![slice, Expr::int(i64::from(!ty.signed))]);
        Ok(self.full(ir, ty))
    }

    fn unary(&mut self, op: CUnary, v: Typed) -> T<Typed> {
        let ty = v.ty.promoted();
        let v = self.convert(v, ty);
        Ok(match op {
            CUnary::Plus => v,
            CUnary::Neg => {
                let ir = Expr::Unary { op: UnOp::Neg, arg: Box::new(v.ir) };
                if ty.signed || self.arith == Arith::Exact {
                    self.fit(ir, ty, -v.hi, -v.lo)
                } else {
                    let modulus = BigInt::one() << ty.width;
                    let ir = add(Expr::Int(modulus), ir);
                    self.fit(ir, ty, (BigInt::one() << ty.width) - v.hi, (BigInt::one() << ty.width) - v.lo)
                }
            }
            CUnary::BitNot => {
                // ~x is -x-1 for signed types and (2^w-1)-x for unsigned ones.
                let base = if ty.signed { BigInt::from(-1) } else { ty.max() };
                let ir = Expr::binary(BinOp::Sub, Expr::Int(base.clone()), v.ir);
                Typed { ir, ty, lo: &base - v.hi, hi: &base - v.lo }
            }
            CUnary::Not => {
                let ir = compare(BinOp::Eq, v.ir, Expr::int(0));
                Typed { ir, ty: INT, lo: BigInt::zero(), hi: BigInt::one() }
            }
        })
    }

    fn binary(&mut self, span: Span, op: CBinary, x: Typed, y: Typed) -> T<Typed> {
        let bool_result = |ir| Typed { ir, ty: INT, lo: BigInt::zero(), hi: BigInt::one() };
        if matches!(op, CBinary::And | CBinary::Or) {
            let o = if op == CBinary::And { BinOp::LogicalAnd } else { BinOp::LogicalOr };
            return Ok(bool_result(Expr::binary(o, x.ir, y.ir)));
        }
        if matches!(op, CBinary::Shl | CBinary::Shr) {
            return self.shift(span, op, x, y);
        }
        let ty = CType::common(x.ty, y.ty);
        let (x, y) = (self.convert(x, ty), self.convert(y, ty));
        let ir_op = match op {
            CBinary::Add => BinOp::Add,
            CBinary::Sub => BinOp::Sub,
            CBinary::Mul => BinOp::Mul,
            CBinary::Div => BinOp::Div,
            CBinary::Rem => BinOp::Rem,
            CBinary::BitAnd => BinOp::And,
            CBinary::BitOr => BinOp::Or,
            CBinary::BitXor => BinOp::Xor,
            CBinary::Lt => BinOp::Lt,
            CBinary::Le => BinOp::Le,
            CBinary::Gt => BinOp::Gt,
            CBinary::Ge => BinOp::Ge,
            CBinary::Eq => BinOp::Eq,
            CBinary::Ne => BinOp::Ne,
            CBinary::And | CBinary::Or | CBinary::Shl | CBinary::Shr => unreachable!("handled above"),
        };
        let ir = Expr::binary(ir_op, x.ir.clone(), y.ir.clone());
        let (lo, hi) = match op {
            CBinary::Lt | CBinary::Le | CBinary::Gt | CBinary::Ge | CBinary::Eq | CBinary::Ne => {
                return Ok(bool_result(compare(ir_op, x.ir, y.ir)));
            }
            CBinary::Add => (&x.lo + &y.lo, &x.hi + &y.hi),
            CBinary::Sub => (&x.lo - &y.hi, &x.hi - &y.lo),
            CBinary::Mul => {
                let c = [&x.lo * &y.lo, &x.lo * &y.hi, &x.hi * &y.lo, &x.hi * &y.hi];
                (c.iter().min().cloned().unwrap_or_default(), c.iter().max().cloned().unwrap_or_default())
            }
            CBinary::Div | CBinary::Rem => {
                if self.arith == Arith::C && y.lo <= BigInt::zero() && y.hi >= BigInt::zero() && y.lo == y.hi {
                    return self.fail(span, "division by zero");
                }
                (ty.min(), ty.max())
            }
            CBinary::BitAnd if !x.lo.is_negative() || !y.lo.is_negative() => {
                let cap = if x.lo.is_negative() {
                    y.hi.clone()
                } else if y.lo.is_negative() {
                    x.hi.clone()
                } else {
                    x.hi.clone().min(y.hi.clone())
                };
                (BigInt::zero(), cap)
            }
            CBinary::BitAnd | CBinary::BitOr | CBinary::BitXor => {
                if !x.lo.is_negative() && !y.lo.is_negative() {
                    let bits = x.hi.bits().max(y.hi.bits());
                    (BigInt::zero(), (BigInt::one() << bits) - 1)
                } else {
                    let bits = [&x.lo, &x.hi, &y.lo, &y.hi].iter().map(|v| v.bits()).max().unwrap_or(0) + 1;
                    let half = BigInt::one() << (bits - 1);
                    (-half.clone(), half - 1)
                }
            }
            _ => unreachable!("comparisons return above"),
        };
        Ok(self.fit(ir, ty, lo, hi))
    }

    fn shift(&mut self, span: Span, op: CBinary, x: Typed, y: Typed) -> T<Typed> {
        let ty = x.ty.promoted();
        let x = self.convert(x, ty);
        if let (true, Some(n)) = (y.lo == y.hi, y.lo.to_u32()) {
            if self.arith == Arith::C && n >= ty.width {
                return self.fail(span, format!("shift by {n}, beyond the {}-bit type", ty.width));
            }
            let (ir_op, lo, hi) = if op == CBinary::Shl {
                (BinOp::Shl, &x.lo << n as usize, &x.hi << n as usize)
            } else {
                (BinOp::Shr, &x.lo >> n as usize, &x.hi >> n as usize)
            };
            return Ok(self.fit(Expr::binary(ir_op, x.ir, Expr::Int(y.lo)), ty, lo, hi));
        }
        // A variable amount shifts within the type's width.
        let x = self.exact_width(x, ty);
        let ir_op = if op == CBinary::Shl { BinOp::Shl } else { BinOp::Shr };
        let ir = Expr::binary(ir_op, x.ir, y.ir);
        let (lo, hi) = if op == CBinary::Shr {
            (x.lo.clone().min(BigInt::zero()), x.hi.clone().max(BigInt::zero()))
        } else {
            (ty.min(), ty.max())
        };
        Ok(Typed { ir, ty, lo, hi })
    }

    /// The IR's built-ins, as the macro table's bodies call them.
    fn builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        match name {
            "sizeof" => self.sizeof_builtin(span, name, args),
            "Saturate" | "SaturateU" => self.saturate_builtin(span, name, args),
            "ZeroExtendLow" | "SignExtendLow" => self.extend_low_builtin(span, name, args),
            "CountLeadingZeros" => {
                self.builtin_arity(span, name, args, 1)?;
                let x = self.expr(&args[0])?;
                if x.ty.signed {
                    return self.fail(span, "`CountLeadingZeros` needs an unsigned operand (cast it)");
                }
                let w = x.ty.width;
                let x = self.exact_width(x, CType::new(w, false));
                Ok(Typed { ir: call(name, vec![x.ir]), ty: INT, lo: BigInt::zero(), hi: BigInt::from(w) })
            }
            "PopCount" => {
                self.builtin_arity(span, name, args, 1)?;
                let x = self.expr(&args[0])?;
                let w = x.ty.width;
                let x = self.exact_width(x, CType::new(w, false));
                Ok(Typed { ir: call(name, vec![x.ir]), ty: INT, lo: BigInt::zero(), hi: BigInt::from(w) })
            }
            _ => self.fail(span, format!("unknown function `{name}`")),
        }
    }

    /// Fails unless the built-in `name` has `n` arguments.
    fn builtin_arity(&self, span: Span, name: &str, args: &[CExpr], n: usize) -> T<()> {
        if args.len() == n {
            Ok(())
        } else {
            self.fail(span, format!("`{name}` takes {n} arguments, got {}", args.len()))
        }
    }

    /// A built-in's constant width argument, 1 to 64.
    fn builtin_width(&self, name: &str, e: &CExpr) -> T<u32> {
        match const_value(e).and_then(|w| w.to_u32()) {
            Some(w) if (1..=64).contains(&w) => Ok(w),
            _ => self.fail(e.span, format!("`{name}` needs a constant width")),
        }
    }

    /// `sizeof(R.t[0])`: the bytes of a lane type.
    fn sizeof_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 1)?;
        let lane = match &args[0].kind {
            CExprKind::Index(base, _) => match &base.kind {
                CExprKind::Member(_, field) => lane_type(field),
                _ => None,
            },
            _ => None,
        };
        match lane {
            Some(t) => Ok(self.literal(BigInt::from(t.width / 8), CType::new(64, false))),
            None => self.fail(span, "`sizeof` of something other than a lane"),
        }
    }

    /// `Saturate(x, N)` or `SaturateU(x, N)`: `x` saturated to N bits, in the
    /// narrowest of `int`, `long long` and `unsigned long long` holding them.
    fn saturate_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 2)?;
        let w = self.builtin_width(name, &args[1])?;
        let x = self.expr(&args[0])?;
        let sat = CType::new(w, name == "Saturate");
        let ty = [INT, LLONG, CType::new(64, false)]
            .into_iter()
            .find(|t| t.min() <= sat.min() && sat.max() <= t.max())
            .unwrap_or(LLONG);
        // One built-in for both: signed and unsigned saturation differ in a number.
        let ir = call("SaturateAs", vec![x.ir, Expr::int(i64::from(w)), Expr::int(i64::from(name == "SaturateU"))]);
        Ok(Typed { ir, ty, lo: sat.min(), hi: sat.max() })
    }

    /// `ZeroExtendLow(N, x)` or `SignExtendLow(N, x)`: the low N bits of a
    /// value, zero- or sign-extended to `long long` (`fZXTN`, `fSXTN`); the
    /// value itself when it already lies in that range, so that an operation
    /// reads the same whether it names its extension or its operand type does.
    fn extend_low_builtin(&mut self, span: Span, name: &str, args: &[CExpr]) -> T<Typed> {
        self.builtin_arity(span, name, args, 2)?;
        let n = self.builtin_width(name, &args[0])?;
        let x = self.expr(&args[1])?;
        let signed = name == "SignExtendLow";
        let ty = CType::common(x.ty, LLONG);
        let lane = CType::new(n, signed);
        if lane.min() <= x.lo && x.hi <= lane.max() {
            return Ok(self.convert(x, ty));
        }
        let mask = self.literal((BigInt::one() << n) - 1, LLONG);
        let low = self.binary(span, CBinary::BitAnd, x, mask)?;
        if !signed {
            return Ok(low);
        }
        let top = self.literal(BigInt::one() << (n - 1), LLONG);
        let flipped = self.binary(span, CBinary::BitXor, low, top.clone())?;
        self.binary(span, CBinary::Sub, flipped, top)
    }
}
