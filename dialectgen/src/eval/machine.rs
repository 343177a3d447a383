//! The evaluator: runs a [`Semantics`] program in any [`Domain`].
//!
//! Control flow on known values is followed directly; a condition that the
//! domain cannot decide (a symbolic input) runs both branches and merges the
//! variables with `ite`, which is how the Z3 encoding is built.

use super::domain::{BvBinOp, BvCmp, Domain};
use super::value::{as_signed, int_bits, int_to_bits, resize, unify, Bits, Value};
use crate::sema::ir::{BinOp, ElemType, Expr, Place, Semantics, Span, Stmt, StmtKind, UnOp};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::HashMap;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum EvalError {
    #[error("{span}: unknown variable `{name}`")]
    UnknownVariable { span: Span, name: String },
    #[error("{span}: unknown function `{name}`")]
    UnknownFunction { span: Span, name: String },
    #[error("{span}: {message}")]
    Invalid { span: Span, message: String },
    #[error("{span}: not supported symbolically: {message}")]
    Symbolic { span: Span, message: String },
    #[error("{span}: evaluation exceeded {limit} steps")]
    StepLimit { span: Span, limit: u64 },
}

#[derive(Clone, Debug)]
pub(crate) struct Var<B> {
    pub value: Value<B>,
    /// Element type for registers passed in: a slice of one element reads with its signedness.
    pub elem: Option<ElemType>,
}

pub(crate) type Env<B> = HashMap<String, Var<B>>;

pub(crate) enum Flow<B> {
    Normal,
    Return(Value<B>),
}

impl EvalError {
    pub fn span(&self) -> Span {
        match self {
            EvalError::UnknownVariable { span, .. }
            | EvalError::UnknownFunction { span, .. }
            | EvalError::Invalid { span, .. }
            | EvalError::Symbolic { span, .. }
            | EvalError::StepLimit { span, .. } => *span,
        }
    }
}

const STEP_LIMIT: u64 = 50_000_000;
const CALL_DEPTH_LIMIT: u32 = 32;
const SYMBOLIC_UNROLL_LIMIT: u32 = 600;

pub struct Machine<'a, D: Domain> {
    pub(crate) dom: &'a mut D,
    pub(crate) sema: &'a Semantics,
    pub(crate) span: Span,
    steps: u64,
    depth: u32,
}

pub(crate) type R<T> = Result<T, EvalError>;

impl<'a, D: Domain> Machine<'a, D> {
    pub fn new(dom: &'a mut D, sema: &'a Semantics) -> Self {
        Machine { dom, sema, span: Span::default(), steps: 0, depth: 0 }
    }

    pub(crate) fn invalid<T>(&self, message: impl Into<String>) -> R<T> {
        Err(EvalError::Invalid { span: self.span, message: message.into() })
    }
    pub(crate) fn symbolic<T>(&self, message: impl Into<String>) -> R<T> {
        Err(EvalError::Symbolic { span: self.span, message: message.into() })
    }

    /// Runs the instruction on `args` (one bitvector per argument, in order)
    /// and returns the result bits.
    pub fn run(&mut self, args: &[D::Bv]) -> R<D::Bv> {
        let sema = self.sema;
        let mut env: Env<D::Bv> = HashMap::new();
        for (arg, bv) in sema.args.iter().zip(args) {
            let bits = Bits { bv: bv.clone(), width: arg.width, signed: false };
            env.insert(arg.name.clone(), Var { value: Value::Bits(bits), elem: Some(arg.elem) });
        }
        let zero = self.dom.literal(&BigUint::zero(), sema.result.width);
        let initial = Bits { bv: zero, width: sema.result.width, signed: false };
        env.insert(sema.result.name.clone(), Var { value: Value::Bits(initial), elem: Some(sema.result.elem) });
        let value = match self.exec_block(&sema.body, &mut env)? {
            Flow::Return(v) => v,
            Flow::Normal => env[&sema.result.name].value.clone(),
        };
        let bits = self.to_bits(&value)?;
        Ok(resize(self.dom, &bits, sema.result.width))
    }

    /// Like [`Machine::run`], also returning every variable's final width and
    /// signedness (integers report width 0).
    pub fn run_typed(&mut self, args: &[D::Bv]) -> R<(D::Bv, Vec<(String, u32, bool)>)> {
        let sema = self.sema;
        let mut env: Env<D::Bv> = HashMap::new();
        for (arg, bv) in sema.args.iter().zip(args) {
            let bits = Bits { bv: bv.clone(), width: arg.width, signed: false };
            env.insert(arg.name.clone(), Var { value: Value::Bits(bits), elem: Some(arg.elem) });
        }
        let zero = self.dom.literal(&BigUint::zero(), sema.result.width);
        let initial = Bits { bv: zero, width: sema.result.width, signed: false };
        env.insert(sema.result.name.clone(), Var { value: Value::Bits(initial), elem: Some(sema.result.elem) });
        let value = match self.exec_block(&sema.body, &mut env)? {
            Flow::Return(v) => v,
            Flow::Normal => env[&sema.result.name].value.clone(),
        };
        let bits = self.to_bits(&value)?;
        if bits.width > sema.result.width && !matches!(value, Value::Int(_)) {
            let written = env.get(&sema.result.name).map_or(0, |v| match &v.value {
                Value::Bits(b) => b.width,
                _ => 0,
            });
            if written > sema.result.width {
                return self.invalid(format!(
                    "`{}` is written up to bit {} but the result has {} bits",
                    sema.result.name,
                    written - 1,
                    sema.result.width
                ));
            }
        }
        let mut types: Vec<(String, u32, bool)> = env
            .iter()
            .map(|(k, v)| match &v.value {
                Value::Bits(b) => (k.clone(), b.width, b.signed),
                _ => (k.clone(), 0, false),
            })
            .collect();
        types.sort();
        Ok((resize(self.dom, &bits, sema.result.width), types))
    }

    fn tick(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err(EvalError::StepLimit { span: self.span, limit: STEP_LIMIT });
        }
        Ok(())
    }

    pub(crate) fn exec_block(&mut self, body: &[Stmt], env: &mut Env<D::Bv>) -> R<Flow<D::Bv>> {
        for stmt in body {
            if let Flow::Return(v) = self.exec(stmt, env)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, stmt: &Stmt, env: &mut Env<D::Bv>) -> R<Flow<D::Bv>> {
        self.span = stmt.span;
        self.tick()?;
        match &stmt.kind {
            StmtKind::Assign { place, value } => {
                if let Some(flow) = self.copy_range(place, value, env)? {
                    return Ok(flow);
                }
                let v = self.eval(value, env)?;
                self.span = stmt.span;
                self.assign(place, v, env)?;
                Ok(Flow::Normal)
            }
            StmtKind::For { var, from, to, descending, body } => {
                let from = self.eval_index(from, env)?;
                let to = self.eval_index(to, env)?;
                env.insert(var.clone(), Var { value: Value::Int(BigInt::from(from)), elem: None });
                loop {
                    let current = match env.get(var).map(|v| &v.value) {
                        Some(Value::Int(i)) => i.to_i64().unwrap_or(i64::MAX),
                        _ => return self.invalid(format!("loop counter `{var}` is no longer an integer")),
                    };
                    if (!descending && current > to) || (*descending && current < to) {
                        break;
                    }
                    self.tick()?;
                    if let Flow::Return(v) = self.exec_block(body, env)? {
                        return Ok(Flow::Return(v));
                    }
                    self.span = stmt.span;
                    let next = match env.get(var).map(|v| &v.value) {
                        Some(Value::Int(i)) if *descending => i - 1,
                        Some(Value::Int(i)) => i + 1,
                        _ => return self.invalid(format!("loop counter `{var}` is no longer an integer")),
                    };
                    env.insert(var.clone(), Var { value: Value::Int(next), elem: None });
                }
                Ok(Flow::Normal)
            }
            StmtKind::While { cond, body } => loop {
                self.span = stmt.span;
                self.tick()?;
                let c = self.eval(cond, env)?;
                match self.truth_literal(&c)? {
                    Some(false) => return Ok(Flow::Normal),
                    Some(true) => {
                        if let Flow::Return(v) = self.exec_block(body, env)? {
                            return Ok(Flow::Return(v));
                        }
                    }
                    None => {
                        let c = self.truth(&c)?;
                        return self.unroll_while(c, cond, body, env, SYMBOLIC_UNROLL_LIMIT);
                    }
                }
            },
            StmtKind::If { cond, then, otherwise } => {
                let c = self.eval(cond, env)?;
                self.branch(c, then, otherwise, env)
            }
            StmtKind::Case { scrutinee, arms } => {
                let s = self.eval(scrutinee, env)?;
                self.exec_case(&s, arms, env)
            }
            StmtKind::Return { value } => Ok(Flow::Return(self.eval(value, env)?)),
            StmtKind::Call { func, args } => {
                // Flag-setting helpers (`SetZF`) do not touch the result.
                for a in args {
                    self.eval(a, env)?;
                }
                if self.sema.function(func).is_some() {
                    self.eval(&Expr::Call { func: func.clone(), args: args.clone() }, env)?;
                }
                Ok(Flow::Normal)
            }
        }
    }

    /// `dst[hi:lo] := src[hi:lo]` with input-dependent bounds (the tail of a
    /// compress): a blend under a mask of bits `lo..=hi`. `None` when the
    /// statement is not of that form or its bounds are known.
    fn copy_range(&mut self, place: &Place, value: &Expr, env: &mut Env<D::Bv>) -> R<Option<Flow<D::Bv>>> {
        let Some((hi, lo)) = &place.range else { return Ok(None) };
        // The source: the same range of another variable, or zero.
        let src = match value {
            Expr::Slice { base, hi: h2, lo: l2 } if hi == h2.as_ref() && lo == l2.as_ref() => match base.as_ref() {
                Expr::Var(src) => Some(src),
                _ => return Ok(None),
            },
            Expr::Int(z) if z.is_zero() => None,
            _ => return Ok(None),
        };
        let (hv, lv) = (self.eval(hi, env)?, self.eval(lo, env)?);
        if self.literal_int(&hv)?.is_some() && self.literal_int(&lv)?.is_some() {
            return Ok(None);
        }
        let Some(dst_var) = env.get(&place.var).cloned() else { return Ok(None) };
        let old = self.to_bits(&dst_var.value)?;
        let width = old.width;
        let src_bv = match src {
            Some(src) => {
                let Some(src_var) = env.get(src).cloned() else { return Ok(None) };
                let src_bits = self.to_bits(&src_var.value)?;
                resize(self.dom, &Bits { signed: false, ..src_bits }, width)
            }
            None => self.dom.literal(&BigUint::zero(), width),
        };
        let ones = self.dom.literal(&((BigUint::one() << width) - BigUint::one()), width);
        let shifted = |m: &mut Self, amount: &Value<D::Bv>, left: bool| -> R<D::Bv> {
            let a = m.to_bits(amount)?;
            let (amt, w) = m.shift_operands(&a, width);
            let x = if w > width { m.dom.zero_extend(&ones, width, w - width) } else { ones.clone() };
            let r = m.dom.binary(if left { BvBinOp::Shl } else { BvBinOp::LShr }, &x, &amt, w);
            Ok(if w > width { m.dom.extract(&r, w, width - 1, 0) } else { r })
        };
        let low_mask = shifted(self, &lv, true)?;
        let top = self.binary(BinOp::Sub, Value::Int(BigInt::from(width) - 1), hv)?;
        let high_mask = shifted(self, &top, false)?;
        let mask = self.dom.binary(BvBinOp::And, &low_mask, &high_mask, width);
        let keep = self.dom.not(&mask, width);
        let kept = self.dom.binary(BvBinOp::And, &old.bv, &keep, width);
        let taken = self.dom.binary(BvBinOp::And, &src_bv, &mask, width);
        let bv = self.dom.binary(BvBinOp::Or, &kept, &taken, width);
        env.insert(place.var.clone(), Var { value: Value::Bits(Bits { bv, width, signed: old.signed }), elem: dst_var.elem });
        Ok(Some(Flow::Normal))
    }

    /// An input-dependent loop: `IF cond { body; loop }`, unrolled until the
    /// condition is known to be false.
    fn unroll_while(&mut self, c: D::Bv, cond: &Expr, body: &[Stmt], env: &mut Env<D::Bv>, budget: u32) -> R<Flow<D::Bv>> {
        if budget == 0 {
            return self.symbolic(format!("loop not bounded within {SYMBOLIC_UNROLL_LIMIT} iterations"));
        }
        let span = self.span;
        let mut then_env = env.clone();
        if let Flow::Return(_) = self.exec_block(body, &mut then_env)? {
            return self.symbolic("RETURN inside an input-dependent loop");
        }
        self.span = span;
        let next = self.eval(cond, &mut then_env)?;
        match self.truth_literal(&next)? {
            Some(false) => {}
            Some(true) => {
                // Known to continue on this path: keep running it.
                let t = self.truth(&next)?;
                self.unroll_while(t, cond, body, &mut then_env, budget - 1)?;
            }
            None => {
                let t = self.truth(&next)?;
                self.unroll_while(t, cond, body, &mut then_env, budget - 1)?;
            }
        }
        let merged = self.merge_env(&c, then_env, std::mem::take(env))?;
        *env = merged;
        Ok(Flow::Normal)
    }

    fn exec_case(&mut self, s: &Value<D::Bv>, arms: &[crate::sema::ir::CaseArm], env: &mut Env<D::Bv>) -> R<Flow<D::Bv>> {
        if let Some(k) = self.literal_int(s)? {
            for arm in arms {
                if arm.label == k {
                    return self.exec_block(&arm.body, env);
                }
            }
            return Ok(Flow::Normal);
        }
        let Some((arm, rest)) = arms.split_first() else { return Ok(Flow::Normal) };
        let label = Value::Int(arm.label.clone());
        let c = self.binary(BinOp::Eq, s.clone(), label)?;
        let c = self.truth(&c)?;
        let mut then_env = env.clone();
        let then_flow = self.exec_block(&arm.body, &mut then_env)?;
        let else_flow = self.exec_case(s, rest, env)?;
        if matches!(then_flow, Flow::Return(_)) || matches!(else_flow, Flow::Return(_)) {
            return self.symbolic("RETURN under an input-dependent CASE");
        }
        let merged = self.merge_env(&c, then_env, std::mem::take(env))?;
        *env = merged;
        Ok(Flow::Normal)
    }

    fn branch(&mut self, c: Value<D::Bv>, then: &[Stmt], otherwise: &[Stmt], env: &mut Env<D::Bv>) -> R<Flow<D::Bv>> {
        match self.truth_literal(&c)? {
            Some(true) => self.exec_block(then, env),
            Some(false) => self.exec_block(otherwise, env),
            None => {
                let c = self.truth(&c)?;
                let mut then_env = env.clone();
                let a = self.exec_block(then, &mut then_env)?;
                let b = self.exec_block(otherwise, env)?;
                match (a, b) {
                    (Flow::Normal, Flow::Normal) => {
                        let merged = self.merge_env(&c, then_env, std::mem::take(env))?;
                        *env = merged;
                        Ok(Flow::Normal)
                    }
                    (Flow::Return(x), Flow::Return(y)) => Ok(Flow::Return(self.merge_value(&c, x, y)?)),
                    _ => self.symbolic("RETURN in one branch of an input-dependent IF"),
                }
            }
        }
    }

    fn merge_env(&mut self, c: &D::Bv, then_env: Env<D::Bv>, mut else_env: Env<D::Bv>) -> R<Env<D::Bv>> {
        let mut out = HashMap::new();
        for (name, tv) in then_env {
            match else_env.remove(&name) {
                Some(ev) => {
                    let value = self.merge_value(c, tv.value, ev.value)?;
                    out.insert(name, Var { value, elem: tv.elem });
                }
                None => {
                    out.insert(name, tv);
                }
            }
        }
        out.extend(else_env);
        Ok(out)
    }

    pub(crate) fn merge_value(&mut self, c: &D::Bv, a: Value<D::Bv>, b: Value<D::Bv>) -> R<Value<D::Bv>> {
        match (&a, &b) {
            (Value::Int(x), Value::Int(y)) if x == y => return Ok(a),
            (Value::Predicate(x), Value::Predicate(y)) if x == y => return Ok(a),
            _ => {}
        }
        let (a, b) = (self.to_bits(&a)?, self.to_bits(&b)?);
        let (x, y, width, signed) = unify(self.dom, &a, &b);
        Ok(Value::Bits(Bits { bv: self.dom.ite(c, &x, &y, width), width, signed }))
    }

    fn assign(&mut self, place: &Place, v: Value<D::Bv>, env: &mut Env<D::Bv>) -> R<()> {
        let Some((hi, lo)) = &place.range else {
            let elem = None;
            env.insert(place.var.clone(), Var { value: v, elem });
            return Ok(());
        };
        let hi_v = self.eval(hi, env)?;
        let lo_v = self.eval(lo, env)?;
        let new = self.to_bits(&v)?;
        let existing = match env.get(&place.var) {
            Some(var) => Some((self.to_bits(&var.value)?, var.elem)),
            None => None,
        };
        let (hi_i, lo_i) = (self.literal_int(&hi_v)?, self.literal_int(&lo_v)?);
        match (hi_i, lo_i) {
            (Some(hi), Some(lo)) => {
                if hi < lo {
                    return Ok(()); // empty range, e.g. `dst[MAX:512] := 0`
                }
                if lo.is_negative() {
                    return self.invalid(format!("bit range [{hi}:{lo}] of `{}` is negative", place.var));
                }
                let (hi, lo) = (self.small(&hi)?, self.small(&lo)?);
                let (old, elem) = match existing {
                    Some(e) => e,
                    None => (Bits { bv: self.dom.literal(&BigUint::zero(), hi + 1), width: hi + 1, signed: false }, None),
                };
                let width = old.width.max(hi + 1);
                let old_bv = resize(self.dom, &old, width);
                let field = resize(self.dom, &new, hi - lo + 1);
                let mut bv = field;
                let mut w = hi - lo + 1;
                if lo > 0 {
                    let low = self.dom.extract(&old_bv, width, lo - 1, 0);
                    bv = self.dom.concat(&bv, w, &low, lo);
                    w += lo;
                }
                if hi + 1 < width {
                    let high = self.dom.extract(&old_bv, width, width - 1, hi + 1);
                    bv = self.dom.concat(&high, width - hi - 1, &bv, w);
                }
                let signed = if lo == 0 && hi + 1 == width { new.signed } else { old.signed };
                env.insert(place.var.clone(), Var { value: Value::Bits(Bits { bv, width, signed }), elem });
                Ok(())
            }
            _ => {
                let Some((old, elem)) = existing else {
                    return self.symbolic(format!("input-dependent write to new variable `{}`", place.var));
                };
                let field_width = self.dynamic_width(hi, lo, env)?;
                let width = old.width;
                let field = resize(self.dom, &new, field_width);
                let field = Bits { bv: field, width: field_width, signed: false };
                let field = resize(self.dom, &field, width);
                let lo_b = self.to_bits(&lo_v)?;
                let (lo_bv, shift_width) = self.shift_operands(&lo_b, width);
                let field_mask = {
                    let m = (BigUint::one() << field_width) - BigUint::one();
                    self.dom.literal(&m, width)
                };
                let place_field = |d: &mut D, x: &D::Bv| -> D::Bv {
                    let x = if shift_width > width { d.zero_extend(x, width, shift_width - width) } else { x.clone() };
                    let s = d.binary(BvBinOp::Shl, &x, &lo_bv, shift_width);
                    if shift_width > width { d.extract(&s, shift_width, width - 1, 0) } else { s }
                };
                let shifted_mask = place_field(self.dom, &field_mask);
                let shifted_field = place_field(self.dom, &field);
                let keep = self.dom.not(&shifted_mask, width);
                let kept = self.dom.binary(BvBinOp::And, &old.bv, &keep, width);
                let bv = self.dom.binary(BvBinOp::Or, &kept, &shifted_field, width);
                env.insert(place.var.clone(), Var { value: Value::Bits(Bits { bv, width, signed: old.signed }), elem });
                Ok(())
            }
        }
    }

    /// The width of `[hi:lo]` when the bounds depend on input but their
    /// difference does not: `a[id+31:id]` is 32 bits wide whatever `id` is.
    /// Arithmetic is exact, so the difference of the two linear forms decides.
    fn dynamic_width(&mut self, hi: &Expr, lo: &Expr, env: &Env<D::Bv>) -> R<u32> {
        let diff = match (self.linear(hi, env), self.linear(lo, env)) {
            (Some(h), Some(l)) => h.minus(&l).constant(),
            _ => None,
        };
        match diff {
            Some(d) if !d.is_negative() => Ok(self.small(&d)? + 1),
            _ => self.symbolic("bit range whose width depends on input"),
        }
    }

    /// `e` as a linear combination of opaque sub-expressions, when it is one.
    fn linear(&mut self, e: &Expr, env: &Env<D::Bv>) -> Option<super::linear::LinearForm> {
        use super::linear::LinearForm;
        Some(match e {
            Expr::Int(i) => LinearForm::constant_of(i.clone()),
            Expr::Var(name) => match env.get(name).map(|v| &v.value) {
                Some(Value::Int(i)) => LinearForm::constant_of(i.clone()),
                _ => LinearForm::atom(format!("{name}")),
            },
            Expr::Binary { op: BinOp::Add, lhs, rhs } => self.linear(lhs, env)?.plus(&self.linear(rhs, env)?),
            Expr::Binary { op: BinOp::Sub, lhs, rhs } => self.linear(lhs, env)?.minus(&self.linear(rhs, env)?),
            Expr::Binary { op: BinOp::Mul, lhs, rhs } => {
                let (a, b) = (self.linear(lhs, env)?, self.linear(rhs, env)?);
                match (a.constant(), b.constant()) {
                    (Some(k), _) => b.scaled(&k),
                    (_, Some(k)) => a.scaled(&k),
                    _ => LinearForm::atom(crate::sema::print::expr_to_string(e)),
                }
            }
            Expr::Unary { op: UnOp::Neg, arg } => self.linear(arg, env)?.scaled(&BigInt::from(-1)),
            other => LinearForm::atom(crate::sema::print::expr_to_string(other)),
        })
    }

    /// Shift amount and operand width for shifting a `width`-bit value by `amount`.
    pub(crate) fn shift_operands(&mut self, amount: &Bits<D::Bv>, width: u32) -> (D::Bv, u32) {
        let w = width.max(amount.width);
        let unsigned = Bits { bv: amount.bv.clone(), width: amount.width, signed: false };
        (resize(self.dom, &unsigned, w), w)
    }

    pub(crate) fn small(&self, v: &BigInt) -> R<u32> {
        match v.to_u32() {
            Some(x) if x < (1 << 20) => Ok(x),
            _ => self.invalid(format!("bit index {v} out of range")),
        }
    }

    pub(crate) fn eval_index(&mut self, e: &Expr, env: &mut Env<D::Bv>) -> R<i64> {
        let v = self.eval(e, env)?;
        match self.literal_int(&v)? {
            Some(i) => i.to_i64().map_or_else(|| self.invalid("loop bound too large"), Ok),
            None => self.symbolic("loop bound depends on input"),
        }
    }

    /// The integer a value stands for, when known.
    pub(crate) fn literal_int(&mut self, v: &Value<D::Bv>) -> R<Option<BigInt>> {
        Ok(match v {
            Value::Int(i) => Some(i.clone()),
            Value::Predicate(p) => Some(BigInt::from(*p)),
            Value::Bits(b) => self.dom.as_literal(&b.bv, b.width).map(|u| super::value::bits_int(&u, b.width, b.signed)),
        })
    }

    pub(crate) fn truth_literal(&mut self, v: &Value<D::Bv>) -> R<Option<bool>> {
        Ok(self.literal_int(v)?.map(|i| !i.is_zero()))
    }

    /// A 1-bit vector: the value is non-zero.
    pub(crate) fn truth(&mut self, v: &Value<D::Bv>) -> R<D::Bv> {
        let b = self.to_bits(v)?;
        if b.width == 1 {
            return Ok(b.bv);
        }
        let zero = self.dom.literal(&BigUint::zero(), b.width);
        let is_zero = self.dom.compare(BvCmp::Eq, &b.bv, &zero, b.width);
        Ok(self.dom.not(&is_zero, 1))
    }

    pub(crate) fn to_bits(&mut self, v: &Value<D::Bv>) -> R<Bits<D::Bv>> {
        match v {
            Value::Bits(b) => Ok(b.clone()),
            Value::Int(i) => Ok(int_to_bits(self.dom, i)),
            Value::Predicate(p) => Ok(int_to_bits(self.dom, &BigInt::from(*p))),
        }
    }

    pub(crate) fn bool_bits(&mut self, bv: D::Bv) -> Value<D::Bv> {
        Value::Bits(Bits { bv, width: 1, signed: false })
    }

    pub(crate) fn eval(&mut self, e: &Expr, env: &mut Env<D::Bv>) -> R<Value<D::Bv>> {
        match e {
            Expr::Int(i) => Ok(Value::Int(i.clone())),
            Expr::Var(name) => self.read_var(name, env),
            Expr::Slice { base, hi, lo } => {
                let hv = self.eval(hi, env)?;
                let lv = self.eval(lo, env)?;
                self.read_slice(base, (hv, hi), (lv, lo), env)
            }
            Expr::Bit { base, index } => {
                let i = self.eval(index, env)?;
                self.read_slice(base, (i.clone(), index), (i, index), env)
            }
            Expr::Unary { op, arg } => {
                let v = self.eval(arg, env)?;
                self.unary(*op, v)
            }
            Expr::Binary { op, lhs, rhs } => {
                let a = self.eval(lhs, env)?;
                if *op == BinOp::And || *op == BinOp::LogicalAnd {
                    // `(tmp >= 0) AND a[tmp] == 0` must not read a[-1].
                    if self.truth_literal(&a)? == Some(false) {
                        return Ok(Value::Int(BigInt::zero()));
                    }
                }
                if *op == BinOp::LogicalOr && self.truth_literal(&a)? == Some(true) {
                    return Ok(Value::Int(BigInt::one()));
                }
                let b = self.eval(rhs, env)?;
                self.binary(*op, a, b)
            }
            Expr::CompareBy { predicate, lhs, rhs } => {
                let p = self.eval(predicate, env)?;
                let a = self.eval(lhs, env)?;
                let b = self.eval(rhs, env)?;
                self.compare_by(p, a, b)
            }
            Expr::Select { cond, then, otherwise } => {
                let c = self.eval(cond, env)?;
                match self.truth_literal(&c)? {
                    Some(true) => self.eval(then, env),
                    Some(false) => self.eval(otherwise, env),
                    None => {
                        let c = self.truth(&c)?;
                        let a = self.eval(then, env)?;
                        let b = self.eval(otherwise, env)?;
                        self.merge_value(&c, a, b)
                    }
                }
            }
            Expr::Call { func, args } => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                if let Some(f) = self.sema.function(func) {
                    return self.call_function(f, values, env);
                }
                self.builtin(func, values)
            }
        }
    }

    fn call_function(&mut self, f: &crate::sema::ir::Function, values: Vec<Value<D::Bv>>, caller: &Env<D::Bv>) -> R<Value<D::Bv>> {
        if values.len() != f.params.len() {
            return self.invalid(format!("`{}` takes {} arguments, got {}", f.name, f.params.len(), values.len()));
        }
        if self.depth >= CALL_DEPTH_LIMIT {
            return self.invalid("call depth limit reached");
        }
        let saved_span = self.span;
        let mut env: Env<D::Bv> = HashMap::new();
        for arg in &self.sema.args {
            if let Some(v) = caller.get(&arg.name) {
                env.insert(arg.name.clone(), v.clone());
            }
        }
        for (p, v) in f.params.iter().zip(values) {
            env.insert(p.clone(), Var { value: v, elem: None });
        }
        self.depth += 1;
        let flow = self.exec_block(&f.body, &mut env);
        self.depth -= 1;
        self.span = saved_span;
        match flow? {
            Flow::Return(v) => Ok(v),
            Flow::Normal => self.invalid(format!("`{}` ended without RETURN", f.name)),
        }
    }

    fn read_var(&mut self, name: &str, env: &Env<D::Bv>) -> R<Value<D::Bv>> {
        if let Some(var) = env.get(name) {
            if let (Value::Bits(b), Some(elem)) = (&var.value, var.elem) {
                let signed = elem.signed && elem.width == b.width;
                return Ok(Value::Bits(Bits { signed, ..b.clone() }));
            }
            return Ok(var.value.clone());
        }
        if name == "MAX" {
            return Ok(Value::Int(BigInt::from(self.sema.result.width) - 1));
        }
        if let Some(code) = predicate_code(name) {
            return Ok(Value::Predicate(code));
        }
        Err(EvalError::UnknownVariable { span: self.span, name: name.to_string() })
    }

    fn read_slice(
        &mut self,
        base: &Expr,
        (hi, hi_e): (Value<D::Bv>, &Expr),
        (lo, lo_e): (Value<D::Bv>, &Expr),
        env: &mut Env<D::Bv>,
    ) -> R<Value<D::Bv>> {
        let (value, elem) = match base {
            Expr::Var(name) => match env.get(name) {
                Some(var) => (var.value.clone(), var.elem),
                None => (self.read_var(name, env)?, None),
            },
            other => (self.eval(other, env)?, None),
        };
        let src = self.to_bits(&value)?;
        let (hi_i, lo_i) = (self.literal_int(&hi)?, self.literal_int(&lo)?);
        if let (Some(hi), Some(lo)) = (&hi_i, &lo_i) {
            if hi + 1u8 == *lo && !lo.is_negative() {
                // `src[511:m]` with m = 512: nothing to read (and the write is a no-op).
                return Ok(Value::Int(BigInt::zero()));
            }
            if hi < lo || lo.is_negative() {
                return self.invalid(format!("bit range [{hi}:{lo}] is empty or negative"));
            }
            let (hi, lo) = (self.small(hi)?, self.small(lo)?);
            let width = hi - lo + 1;
            let full = src.width.max(hi + 1);
            let bv = resize(self.dom, &src, full);
            let bv = if lo == 0 && hi + 1 == full { bv } else { self.dom.extract(&bv, full, hi, lo) };
            let signed = match elem {
                Some(e) => e.signed && e.width == width,
                None => src.signed && lo == 0 && width == src.width,
            };
            return Ok(Value::Bits(Bits { bv, width, signed }));
        }
        let width = self.dynamic_width(hi_e, lo_e, env)?;
        let lo_b = self.to_bits(&lo)?;
        let (amount, w) = self.shift_operands(&lo_b, src.width);
        let x = resize(self.dom, &src, w);
        let shifted = self.dom.binary(BvBinOp::LShr, &x, &amount, w);
        let shifted = Bits { bv: shifted, width: w, signed: false };
        let bv = resize(self.dom, &shifted, width);
        let signed = matches!(elem, Some(e) if e.signed && e.width == width);
        Ok(Value::Bits(Bits { bv, width, signed }))
    }

    pub(crate) fn unary(&mut self, op: UnOp, v: Value<D::Bv>) -> R<Value<D::Bv>> {
        if let Value::Int(i) = &v {
            return Ok(Value::Int(match op {
                UnOp::Neg => -i,
                UnOp::Not => !i,
                UnOp::LogicalNot => BigInt::from(u8::from(i.is_zero())),
            }));
        }
        let b = self.to_bits(&v)?;
        Ok(match op {
            UnOp::Neg => {
                let s = as_signed(self.dom, &b);
                let x = self.dom.sign_extend(&s.bv, s.width, 1);
                let zero = self.dom.literal(&BigUint::zero(), s.width + 1);
                let bv = self.dom.binary(BvBinOp::Sub, &zero, &x, s.width + 1);
                Value::Bits(Bits { bv, width: s.width + 1, signed: true })
            }
            UnOp::Not => Value::Bits(Bits { bv: self.dom.not(&b.bv, b.width), ..b }),
            UnOp::LogicalNot => {
                let t = self.truth(&Value::Bits(b))?;
                let bv = self.dom.not(&t, 1);
                self.bool_bits(bv)
            }
        })
    }

    pub(crate) fn binary(&mut self, op: BinOp, a: Value<D::Bv>, b: Value<D::Bv>) -> R<Value<D::Bv>> {
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            return self.int_binary(op, x, y);
        }
        if matches!(op, BinOp::LogicalAnd | BinOp::LogicalOr) {
            let (x, y) = (self.truth(&a)?, self.truth(&b)?);
            let bv = self.dom.binary(if op == BinOp::LogicalAnd { BvBinOp::And } else { BvBinOp::Or }, &x, &y, 1);
            return Ok(self.bool_bits(bv));
        }
        if op == BinOp::Shl || op == BinOp::Shr {
            return self.shift(op, a, b);
        }
        let (a, b) = (self.to_bits(&a)?, self.to_bits(&b)?);
        let dom = &mut *self.dom;
        let bits = |bv, width, signed| Value::Bits(Bits { bv, width, signed });
        Ok(match op {
            BinOp::Add | BinOp::Sub => {
                let (a, b) = if op == BinOp::Sub { (as_signed(dom, &a), as_signed(dom, &b)) } else { (a, b) };
                let (x, y, w, s) = unify(dom, &a, &b);
                let grow = |d: &mut D, v: &D::Bv| if s { d.sign_extend(v, w, 1) } else { d.zero_extend(v, w, 1) };
                let (x, y) = (grow(dom, &x), grow(dom, &y));
                let bvop = if op == BinOp::Add { BvBinOp::Add } else { BvBinOp::Sub };
                bits(dom.binary(bvop, &x, &y, w + 1), w + 1, s)
            }
            BinOp::Mul => {
                let (a, b) = if a.signed || b.signed { (as_signed(dom, &a), as_signed(dom, &b)) } else { (a, b) };
                let w = a.width + b.width;
                let (x, y) = (resize(dom, &a, w), resize(dom, &b, w));
                bits(dom.binary(BvBinOp::Mul, &x, &y, w), w, a.signed)
            }
            BinOp::Div | BinOp::Rem => {
                let (x, y, w, s) = unify(dom, &a, &b);
                let bvop = match (op, s) {
                    (BinOp::Div, false) => BvBinOp::UDiv,
                    (BinOp::Div, true) => BvBinOp::SDiv,
                    (_, false) => BvBinOp::URem,
                    (_, true) => BvBinOp::SRem,
                };
                bits(dom.binary(bvop, &x, &y, w), w, s)
            }
            BinOp::And | BinOp::Or | BinOp::Xor => {
                let (x, y, w, s) = unify(dom, &a, &b);
                let bvop = match op {
                    BinOp::And => BvBinOp::And,
                    BinOp::Or => BvBinOp::Or,
                    _ => BvBinOp::Xor,
                };
                bits(dom.binary(bvop, &x, &y, w), w, s)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (x, y, w, s) = unify(dom, &a, &b);
                let (lt, le) = if s { (BvCmp::Slt, BvCmp::Sle) } else { (BvCmp::Ult, BvCmp::Ule) };
                let r = match op {
                    BinOp::Eq => dom.compare(BvCmp::Eq, &x, &y, w),
                    BinOp::Ne => {
                        let e = dom.compare(BvCmp::Eq, &x, &y, w);
                        dom.not(&e, 1)
                    }
                    BinOp::Lt => dom.compare(lt, &x, &y, w),
                    BinOp::Le => dom.compare(le, &x, &y, w),
                    BinOp::Gt => dom.compare(lt, &y, &x, w),
                    _ => dom.compare(le, &y, &x, w),
                };
                bits(r, 1, false)
            }
            BinOp::Shl | BinOp::Shr | BinOp::LogicalAnd | BinOp::LogicalOr => unreachable!("handled above"),
        })
    }

    fn shift(&mut self, op: BinOp, a: Value<D::Bv>, amount: Value<D::Bv>) -> R<Value<D::Bv>> {
        let x = self.to_bits(&a)?;
        if let Value::Int(n) = &amount {
            let n = self.small(n)?;
            if op == BinOp::Shl {
                if n == 0 {
                    return Ok(Value::Bits(x));
                }
                let zeros = self.dom.literal(&BigUint::zero(), n);
                let bv = self.dom.concat(&x.bv, x.width, &zeros, n);
                return Ok(Value::Bits(Bits { bv, width: x.width + n, signed: x.signed }));
            }
        }
        let amt = self.to_bits(&amount)?;
        let (amount_bv, w) = self.shift_operands(&amt, x.width);
        let xv = resize(self.dom, &x, w);
        let bvop = match (op, x.signed) {
            (BinOp::Shl, _) => BvBinOp::Shl,
            (_, true) => BvBinOp::AShr,
            (_, false) => BvBinOp::LShr,
        };
        let r = self.dom.binary(bvop, &xv, &amount_bv, w);
        let r = if w > x.width { self.dom.extract(&r, w, x.width - 1, 0) } else { r };
        Ok(Value::Bits(Bits { bv: r, width: x.width, signed: x.signed }))
    }

    fn int_binary(&mut self, op: BinOp, x: &BigInt, y: &BigInt) -> R<Value<D::Bv>> {
        let b = |c: bool| BigInt::from(u8::from(c));
        Ok(Value::Int(match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div | BinOp::Rem if y.is_zero() => return self.invalid("division by zero"),
            BinOp::Div => x / y,
            BinOp::Rem => x % y,
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
            BinOp::Shl => x << self.small(y)?,
            BinOp::Shr => x >> self.small(y)?,
            BinOp::Eq => b(x == y),
            BinOp::Ne => b(x != y),
            BinOp::Lt => b(x < y),
            BinOp::Le => b(x <= y),
            BinOp::Gt => b(x > y),
            BinOp::Ge => b(x >= y),
            BinOp::LogicalAnd => b(!x.is_zero() && !y.is_zero()),
            BinOp::LogicalOr => b(!x.is_zero() || !y.is_zero()),
        }))
    }

    fn compare_by(&mut self, p: Value<D::Bv>, a: Value<D::Bv>, b: Value<D::Bv>) -> R<Value<D::Bv>> {
        let outcome = |m: &mut Self, code: u8| -> R<Value<D::Bv>> {
            let op = match code {
                0 => BinOp::Eq,
                1 => BinOp::Lt,
                2 => BinOp::Le,
                3 => return Ok(Value::Int(BigInt::zero())),
                4 => BinOp::Ne,
                5 => BinOp::Ge,
                6 => BinOp::Gt,
                _ => return Ok(Value::Int(BigInt::one())),
            };
            m.binary(op, a.clone(), b.clone())
        };
        if let Some(code) = self.literal_int(&p)? {
            return outcome(self, code.to_u8().unwrap_or(7) & 7);
        }
        let pb = self.to_bits(&p)?;
        let mut result = outcome(self, 7)?;
        for code in (0..7u8).rev() {
            let lit = self.dom.literal(&BigUint::from(code), pb.width);
            let c = self.dom.compare(BvCmp::Eq, &pb.bv, &lit, pb.width);
            let here = outcome(self, code)?;
            result = self.merge_value(&c, here, result)?;
        }
        Ok(result)
    }
}

/// `_MM_CMPINT_*` predicate codes, as the VPCMP immediate encodes them.
fn predicate_code(name: &str) -> Option<u8> {
    Some(match name {
        "_MM_CMPINT_EQ" => 0,
        "_MM_CMPINT_LT" => 1,
        "_MM_CMPINT_LE" => 2,
        "_MM_CMPINT_FALSE" => 3,
        "_MM_CMPINT_NE" => 4,
        "_MM_CMPINT_NLT" => 5,
        "_MM_CMPINT_NLE" => 6,
        "_MM_CMPINT_TRUE" => 7,
        _ => return None,
    })
}

/// Helper shared by built-ins: two's complement literal of an integer at a width.
pub(crate) fn literal_of<D: Domain>(d: &mut D, v: &BigInt, width: u32) -> D::Bv {
    d.literal(&int_bits(v, width), width)
}
