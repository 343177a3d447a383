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

mod builtins;
mod constant;
mod loops;

use super::ast::{CBinary, CExpr, CExprKind, CStmt, CStmtKind, CUnary};
use super::ctype::{CType, INT};
use crate::sema::ir::{BinOp, Expr, Place, Span, Stmt, StmtKind, UnOp};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use constant::linear;
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

}
