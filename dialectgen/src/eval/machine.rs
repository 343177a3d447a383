//! The evaluator: runs a [`Semantics`] program in any [`Domain`].
//!
//! Control flow on known values is followed directly; a condition that the
//! domain cannot decide (a symbolic input) runs both branches and merges the
//! variables with `ite`, which is how the Z3 encoding is built.

use super::domain::{BvBinOp, BvCmp, Domain};
use super::value::{int_bits, int_to_bits, resize, unify, Bits, Value};
use crate::sema::ir::{BinOp, ElemType, Expr, Semantics, Span, Stmt, StmtKind};
use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};
use rustc_hash::FxHashMap;

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

/// Variables by name (hashed the fast way: the interpreter looks names up
/// for every element it computes).
pub(crate) type Env<B> = FxHashMap<String, Var<B>>;

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
pub(crate) const CALL_DEPTH_LIMIT: u32 = 32;
const SYMBOLIC_UNROLL_LIMIT: u32 = 600;
/// Input-dependent loop iterations unrolled in one run, over all its loops:
/// one bit at a time over a whole 512-bit register is 512, and a loop
/// that shifts a full register per lane (a corrupt definition) is bounded
/// by an error, not by minutes of terms.
const SYMBOLIC_UNROLL_TOTAL: u32 = 2048;
/// Counted loops and bit positions are bounded well above any vector
/// register (a few thousand bits), so that a corrupt bound costs an error,
/// not gigabytes of terms `2^20` bits wide.
const FOR_TRIP_LIMIT: i64 = 1 << 16;
const BIT_INDEX_LIMIT: u32 = 1 << 16;

pub struct Machine<'a, D: Domain> {
    pub(crate) dom: &'a mut D,
    pub(crate) sema: &'a Semantics,
    pub(crate) span: Span,
    steps: u64,
    /// Input-dependent loop iterations unrolled so far (see [`SYMBOLIC_UNROLL_TOTAL`]).
    unrolled: u32,
    pub(crate) depth: u32,
    /// Trips the next `FOR` loop may run (see [`Machine::run_prefix`]).
    trip_cap: Option<i64>,
    /// The result bits written so far, while they are being tracked (see
    /// [`Machine::run_prefix`]).
    pub(crate) written: Option<BigUint>,
}

pub(crate) type R<T> = Result<T, EvalError>;

/// A variable's final width and signedness, as `run_typed` reports it.
pub type VarWidth = (String, u32, bool);

impl<'a, D: Domain> Machine<'a, D> {
    pub fn new(dom: &'a mut D, sema: &'a Semantics) -> Self {
        Machine { dom, sema, span: Span::default(), steps: 0, unrolled: 0, depth: 0, trip_cap: None, written: None }
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
        let (value, _) = self.execute(args)?;
        let bits = self.to_bits(&value)?;
        Ok(resize(self.dom, &bits, self.sema.result.width))
    }

    /// Runs the body up to its top-level `FOR` loop number `nth` (0 is the
    /// first), that loop's first `trips` iterations, and nothing after.
    /// Returns the result and the result bits that those trips wrote: what
    /// an instruction's lanes are when that loop computes one lane per trip
    /// (a write of input-dependent bits, or of the whole result, counts as
    /// writing all of it). With fewer top-level loops the whole body runs
    /// and nothing is counted as written.
    pub fn run_prefix(&mut self, args: &[D::Bv], nth: usize, trips: i64) -> R<(D::Bv, BigUint)> {
        let sema = self.sema;
        let mut env = self.bind(args);
        let mut loops = 0;
        let mut value = None;
        for stmt in &sema.body {
            let capped = matches!(stmt.kind, StmtKind::For { .. }) && {
                loops += 1;
                loops == nth + 1
            };
            if capped {
                self.trip_cap = Some(trips);
                self.written = Some(BigUint::zero());
            }
            if let Flow::Return(v) = self.exec(stmt, &mut env)? {
                value = Some(v);
                break;
            }
            if capped {
                break;
            }
        }
        let value = value.unwrap_or_else(|| env[&sema.result.name].value.clone());
        let bits = self.to_bits(&value)?;
        let all = (BigUint::from(1u8) << sema.result.width) - 1u8;
        let written = self.written.take().unwrap_or_default() & all;
        Ok((resize(self.dom, &bits, sema.result.width), written))
    }

    /// Counts bits `lo..=hi` of `var` as written, if it is the result and
    /// writes are being tracked; `None` bounds mean every bit.
    pub(crate) fn note_write(&mut self, var: &str, bits: Option<(u32, u32)>) {
        if let Some(written) = &mut self.written {
            if var == self.sema.result.name {
                let (hi, lo) = bits.unwrap_or((self.sema.result.width.max(1) - 1, 0));
                *written |= ((BigUint::from(1u8) << (hi - lo + 1)) - 1u8) << lo;
            }
        }
    }

    /// Like [`Machine::run`], also checking that the result variable is not
    /// written beyond the result width and returning every variable's final
    /// width and signedness (integers report width 0).
    pub fn run_typed(&mut self, args: &[D::Bv]) -> R<(D::Bv, Vec<VarWidth>)> {
        let sema = self.sema;
        let (value, env) = self.execute(args)?;
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
        let mut types: Vec<VarWidth> = env
            .iter()
            .map(|(k, v)| match &v.value {
                Value::Bits(b) => (k.clone(), b.width, b.signed),
                _ => (k.clone(), 0, false),
            })
            .collect();
        types.sort();
        let bits = self.to_bits(&value)?;
        Ok((resize(self.dom, &bits, sema.result.width), types))
    }

    /// Binds the arguments, starts the result at zero, and runs the body.
    #[allow(clippy::type_complexity)]
    fn execute(&mut self, args: &[D::Bv]) -> R<(Value<D::Bv>, Env<D::Bv>)> {
        let sema = self.sema;
        let mut env = self.bind(args);
        let value = match self.exec_block(&sema.body, &mut env)? {
            Flow::Return(v) => v,
            Flow::Normal => env[&sema.result.name].value.clone(),
        };
        Ok((value, env))
    }

    /// The arguments bound to their names, and the result at zero.
    fn bind(&mut self, args: &[D::Bv]) -> Env<D::Bv> {
        let sema = self.sema;
        let mut env: Env<D::Bv> = FxHashMap::default();
        for (arg, bv) in sema.args.iter().zip(args) {
            let bits = Bits { bv: bv.clone(), width: arg.width, signed: false };
            env.insert(arg.name.clone(), Var { value: Value::Bits(bits), elem: Some(arg.elem) });
        }
        let width = sema.result.width;
        let initial = Bits { bv: self.dom.literal(&BigUint::zero(), width), width, signed: false };
        env.insert(sema.result.name.clone(), Var { value: Value::Bits(initial), elem: Some(sema.result.elem) });
        env
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
                self.exec_for(stmt.span, var, (from, to, *descending), body, env)
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

    /// `FOR var := from TO to` (or `DOWNTO`, `descending`): the body once per
    /// value of the counter, which the body may change, within the trip cap.
    fn exec_for(
        &mut self,
        span: Span,
        var: &str,
        (from, to, descending): (&Expr, &Expr, bool),
        body: &[Stmt],
        env: &mut Env<D::Bv>,
    ) -> R<Flow<D::Bv>> {
        let mut left = self.trip_cap.take().unwrap_or(i64::MAX);
        let from = self.eval_index(from, env)?;
        let to = self.eval_index(to, env)?;
        let trips = if descending { from.saturating_sub(to) } else { to.saturating_sub(from) };
        if trips >= FOR_TRIP_LIMIT {
            return self.invalid(format!("loop from {from} to {to} runs more than {FOR_TRIP_LIMIT} times"));
        }
        env.insert(var.to_string(), Var { value: Value::Int(BigInt::from(from)), elem: None });
        loop {
            if left == 0 {
                break;
            }
            left -= 1;
            let current = match env.get(var).map(|v| &v.value) {
                Some(Value::Int(i)) => i.to_i64().unwrap_or(i64::MAX),
                _ => return self.invalid(format!("loop counter `{var}` is no longer an integer")),
            };
            if (!descending && current > to) || (descending && current < to) {
                break;
            }
            self.tick()?;
            if let Flow::Return(v) = self.exec_block(body, env)? {
                return Ok(Flow::Return(v));
            }
            self.span = span;
            let next = match env.get(var).map(|v| &v.value) {
                Some(Value::Int(i)) if descending => i - 1,
                Some(Value::Int(i)) => i + 1,
                _ => return self.invalid(format!("loop counter `{var}` is no longer an integer")),
            };
            env.insert(var.to_string(), Var { value: Value::Int(next), elem: None });
        }
        Ok(Flow::Normal)
    }

    /// An input-dependent loop: `IF cond { body; loop }`, unrolled until the
    /// condition is known to be false.
    fn unroll_while(
        &mut self,
        c: D::Bv,
        cond: &Expr,
        body: &[Stmt],
        env: &mut Env<D::Bv>,
        budget: u32,
    ) -> R<Flow<D::Bv>> {
        if budget == 0 {
            return self.symbolic(format!("loop not bounded within {SYMBOLIC_UNROLL_LIMIT} iterations"));
        }
        self.unrolled += 1;
        if self.unrolled > SYMBOLIC_UNROLL_TOTAL {
            return self.symbolic(format!(
                "input-dependent loops unrolled more than {SYMBOLIC_UNROLL_TOTAL} iterations in all"
            ));
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

    fn exec_case(
        &mut self,
        s: &Value<D::Bv>,
        arms: &[crate::sema::ir::CaseArm],
        env: &mut Env<D::Bv>,
    ) -> R<Flow<D::Bv>> {
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
        let mut out = FxHashMap::default();
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
            _ => {}
        }
        let (a, b) = (self.to_bits(&a)?, self.to_bits(&b)?);
        let (x, y, width, signed) = unify(self.dom, &a, &b);
        Ok(Value::Bits(Bits { bv: self.dom.ite(c, &x, &y, width), width, signed }))
    }

    /// Shift amount and operand width for shifting a `width`-bit value by `amount`.
    pub(crate) fn shift_operands(&mut self, amount: &Bits<D::Bv>, width: u32) -> (D::Bv, u32) {
        let w = width.max(amount.width);
        let unsigned = Bits { bv: amount.bv.clone(), width: amount.width, signed: false };
        (resize(self.dom, &unsigned, w), w)
    }

    /// `x` shifted by `amount` (read unsigned) with `op`, kept at `x.width`
    /// bits: the shift happens at the wider of the two widths, so a large
    /// amount shifts everything out instead of wrapping.
    pub(crate) fn shift_within(&mut self, x: &Bits<D::Bv>, amount: &Bits<D::Bv>, op: BvBinOp) -> D::Bv {
        let (amount_bv, w) = self.shift_operands(amount, x.width);
        let xv = resize(self.dom, x, w);
        let r = self.dom.binary(op, &xv, &amount_bv, w);
        if w > x.width {
            self.dom.extract(&r, w, x.width - 1, 0)
        } else {
            r
        }
    }

    /// `old` with the bits under `mask` replaced by `masked_new` (which has
    /// no bits outside `mask`).
    pub(crate) fn blend(&mut self, old: &D::Bv, masked_new: &D::Bv, mask: &D::Bv, width: u32) -> D::Bv {
        let keep = self.dom.not(mask, width);
        let kept = self.dom.binary(BvBinOp::And, old, &keep, width);
        self.dom.binary(BvBinOp::Or, &kept, masked_new, width)
    }

    pub(crate) fn small(&self, v: &BigInt) -> R<u32> {
        match v.to_u32() {
            Some(x) if x < BIT_INDEX_LIMIT => Ok(x),
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
            Value::Bits(b) => {
                self.dom.as_literal(&b.bv, b.width).map(|u| super::value::bits_int(&u, b.width, b.signed))
            }
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

    #[allow(clippy::wrong_self_convention)]
    pub(crate) fn to_bits(&mut self, v: &Value<D::Bv>) -> R<Bits<D::Bv>> {
        match v {
            Value::Bits(b) => Ok(b.clone()),
            Value::Int(i) => Ok(int_to_bits(self.dom, i)),
        }
    }

    pub(crate) fn bool_bits(&mut self, bv: D::Bv) -> Value<D::Bv> {
        Value::Bits(Bits { bv, width: 1, signed: false })
    }
}

/// Helper shared by built-ins: two's complement literal of an integer at a width.
pub(crate) fn literal_of<D: Domain>(d: &mut D, v: &BigInt, width: u32) -> D::Bv {
    d.literal(&int_bits(v, width), width)
}
