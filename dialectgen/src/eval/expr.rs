//! Expressions: reading variables and bit ranges, operators and calls,
//! with the exact-arithmetic width rules of [`super::value`].

use super::domain::{BvBinOp, BvCmp, Domain};
use super::machine::{Env, EvalError, Flow, Machine, Var, CALL_DEPTH_LIMIT, R};
use super::value::{as_signed, resize, unify, Bits, Value};
use crate::sema::ir::{operator_of_code, BinOp, Expr, OperatorFamily, UnOp};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};
use rustc_hash::FxHashMap;

impl<D: Domain> Machine<'_, D> {
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
            Expr::OperateBy { family, code, lhs, rhs } => {
                let c = self.eval(code, env)?;
                let a = self.eval(lhs, env)?;
                let b = self.eval(rhs, env)?;
                self.operate_by(*family, c, a, b)
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

    fn call_function(
        &mut self,
        f: &crate::sema::ir::Function,
        values: Vec<Value<D::Bv>>,
        caller: &Env<D::Bv>,
    ) -> R<Value<D::Bv>> {
        if values.len() != f.params.len() {
            return self.invalid(format!("`{}` takes {} arguments, got {}", f.name, f.params.len(), values.len()));
        }
        if self.depth >= CALL_DEPTH_LIMIT {
            return self.invalid("call depth limit reached");
        }
        let saved_span = self.span;
        let mut env: Env<D::Bv> = FxHashMap::default();
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
        if name == crate::sema::ir::RESULT_TOP {
            return Ok(Value::Int(BigInt::from(self.sema.result.width) - 1));
        }
        if let Some(code) = crate::sema::ir::COMPARISON_PREDICATES.iter().position(|p| *p == name) {
            return Ok(Value::Int(BigInt::from(code)));
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
        let bvop = match (op, x.signed) {
            (BinOp::Shl, _) => BvBinOp::Shl,
            (_, true) => BvBinOp::AShr,
            (_, false) => BvBinOp::LShr,
        };
        let r = self.shift_within(&x, &amt, bvop);
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

    /// The operator `code` chooses in `family` applied to `a` and `b`. The
    /// code is a number in every instruction and class template, so a
    /// symbolic one is not supported.
    fn operate_by(
        &mut self,
        family: OperatorFamily,
        code: Value<D::Bv>,
        a: Value<D::Bv>,
        b: Value<D::Bv>,
    ) -> R<Value<D::Bv>> {
        let Some(code) = self.literal_int(&code)? else {
            return self.symbolic(format!("the code of a {} operator is not a number", family.name()));
        };
        let Some(code) = code.to_i64() else {
            return self.invalid(format!("{} code {code} is out of range", family.name()));
        };
        if let Some(op) = operator_of_code(family, code) {
            return self.binary(op, a, b);
        }
        if family != OperatorFamily::Bitwise || !(0..16).contains(&code) {
            return self.invalid(format!("{code} is no {} code", family.name()));
        }
        // A truth table: the OR of the minterms whose bit is set.
        let (not_a, not_b) = (self.unary(UnOp::Not, a.clone())?, self.unary(UnOp::Not, b.clone())?);
        let mut result = self.binary(BinOp::And, a.clone(), not_a.clone())?;
        for (bit, l, r) in [(3, &a, &b), (2, &a, &not_b), (1, &not_a, &b), (0, &not_a, &not_b)] {
            if code >> bit & 1 == 1 {
                let term = self.binary(BinOp::And, l.clone(), r.clone())?;
                result = self.binary(BinOp::Or, result, term)?;
            }
        }
        Ok(result)
    }

    fn compare_by(&mut self, p: Value<D::Bv>, a: Value<D::Bv>, b: Value<D::Bv>) -> R<Value<D::Bv>> {
        let outcome = |m: &mut Self, code: u8| -> R<Value<D::Bv>> {
            let op = match (code, crate::sema::ir::comparison_of_code(code)) {
                (_, Some(op)) => op,
                (3, None) => return Ok(Value::Int(BigInt::zero())),
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
