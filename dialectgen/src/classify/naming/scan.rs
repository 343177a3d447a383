//! The walk over a template's statements that fills in its [`Features`]:
//! each operation on data, each sign stated or implied, each way a shift
//! amount or an element index is given.

use super::features::{Features, Op, ShiftBy, Sign};
use super::reads::*;
use super::shape::register_copies;
use crate::sema::ir::{ArgKind, BinOp, Expr, OperatorFamily, Semantics, Stmt, StmtKind, UnOp};
use crate::sema::visit::{any_expr, walk_expr};
use std::collections::BTreeSet;

/// What `s` computes, read off its statements.
pub(super) fn features(s: &Semantics) -> Features {
    let mut scan = Scan {
        sema: s,
        registers: register_copies(s),
        loop_vars: loop_vars(s),
        index_vars: index_vars(s),
        f: Features::default(),
    };
    for f in &s.functions {
        scan.stmts(&f.body);
    }
    scan.stmts(&s.body);
    let mut f = scan.f;
    let pow2 = |n: &num_bigint::BigInt| n > &num_bigint::BigInt::from(0) && (n & (n - 1u32)) == 0u32.into();
    f.rounds = f.added_literals.iter().any(pow2) && (f.ops.contains(&Op::Shr) || f.drops_low_bits);
    f
}

struct Scan<'a> {
    sema: &'a Semantics,
    /// Locals holding a whole argument register (`v1 := ZeroExtend(a0, 128)[bit:0]`).
    registers: BTreeSet<String>,
    /// Loop counters, and the locals computed from them.
    loop_vars: BTreeSet<String>,
    /// Locals and parameters used to pick bits: their values are indices.
    index_vars: BTreeSet<String>,
    f: Features,
}

impl<'a> Scan<'a> {
    fn arg(&self, name: &str) -> Option<&'a crate::sema::ir::Arg> {
        self.sema.args.iter().find(|a| a.name == name)
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { place, value } => {
                    if self.index_vars.contains(&place.var) {
                        if reads_data(value, self) {
                            self.f.data_index = true;
                        }
                    } else {
                        if accumulates_product(&place.var, value) {
                            self.f.products += 2;
                        }
                        self.data(value);
                    }
                }
                StmtKind::For { var, body, .. } => {
                    self.loop_body(body);
                    if self.per_lane(var, body) {
                        self.f.in_lanes = true;
                    }
                    self.stmts(body)
                }
                StmtKind::While { cond, body } => {
                    if reads_data(cond, self) {
                        self.f.counts_while = true;
                    }
                    self.stmts(body)
                }
                StmtKind::If { cond, then, otherwise } => match literal(cond) {
                    // A branch a literal rules out computes nothing.
                    Some(0) => self.stmts(otherwise),
                    Some(_) => self.stmts(then),
                    None => {
                        let flags_only = |b: &[Stmt]| {
                            b.iter().all(|st| {
                                matches!(&st.kind, StmtKind::Assign { value, .. }
                                if !reads_data(value, self) && !mentions_argument(value, self.sema))
                            })
                        };
                        if reads_data(cond, self) && flags_only(then) && flags_only(otherwise) {
                            // A condition whose outcome is the value: the test is the operation.
                            self.data(cond);
                        } else if reads_data(cond, self) {
                            self.f.conditional = true;
                        } else if mentions_argument(cond, self.sema) {
                            self.f.chosen_by_immediate = true;
                        } else {
                            self.f.alternatives = true;
                        }
                        self.stmts(then);
                        self.stmts(otherwise);
                    }
                },
                StmtKind::Case { scrutinee, arms } => {
                    if mentions_argument(scrutinee, self.sema) {
                        self.f.case_on_argument = true;
                    }
                    for a in arms {
                        self.stmts(&a.body);
                    }
                }
                StmtKind::Return { value } => self.data(value),
                StmtKind::Call { args, .. } => args.iter().for_each(|a| self.data(a)),
            }
        }
    }

    /// The signedness an expression's value reads with, where it says, and
    /// whether it is said outright (a cast or flag) rather than by an
    /// extension or the register's element type.
    fn sign_of(&self, e: &Expr) -> Option<(Sign, bool)> {
        match e {
            Expr::Call { func, args } => {
                if let Some(s) = stated_sign(func, args) {
                    return Some((s, true));
                }
                match func.as_str() {
                    "SignExtend" | "ZeroExtend" => {
                        let inner = args.first().and_then(|a| self.sign_of(a)).filter(|(_, outright)| *outright);
                        inner.or(Some((if func == "SignExtend" { Sign::Signed } else { Sign::Unsigned }, false)))
                    }
                    "SaturateU" => Some((Sign::Unsigned, false)),
                    "Saturate" | "Abs" | "Max" | "Min" | "ShiftInt" => args.first().and_then(|a| self.sign_of(a)),
                    _ => None,
                }
            }
            Expr::Slice { base, .. } | Expr::Bit { base, .. } => self.sign_of(base),
            Expr::Var(v) => self
                .arg(v)
                .filter(|a| a.kind == ArgKind::Vector || a.kind == ArgKind::Scalar)
                .map(|a| (if a.elem.signed { Sign::Signed } else { Sign::Unsigned }, false)),
            Expr::Unary { arg, .. } => self.sign_of(arg),
            Expr::Binary { lhs, rhs, .. } | Expr::OperateBy { lhs, rhs, .. } => {
                self.sign_of(lhs).or_else(|| self.sign_of(rhs))
            }
            Expr::Select { then, otherwise, .. } => self.sign_of(then).or_else(|| self.sign_of(otherwise)),
            Expr::Int(_) | Expr::CompareBy { .. } => None,
        }
    }

    /// Records the signedness an operand of a sign-sensitive operation reads with.
    fn note_sign(&mut self, e: &Expr) {
        if let Some((s, _)) = self.sign_of(e) {
            self.f.signs.insert(s);
        }
    }

    /// Scans an expression computing data; indices inside it are skipped.
    fn data(&mut self, e: &Expr) {
        match e {
            Expr::Int(_) | Expr::Var(_) => {}
            Expr::Slice { base, hi, lo } => {
                if reads_data(hi, self) || reads_data(lo, self) {
                    self.f.data_index = true;
                }
                if matches!(**base, Expr::Var(ref v) if self.arg(v).is_none())
                    && matches!(**lo, Expr::Int(ref n) if n > &num_bigint::BigInt::from(0))
                {
                    self.f.drops_low_bits = true;
                }
                self.data(base);
            }
            Expr::Bit { base, index } => {
                if reads_data(index, self) {
                    self.f.data_index = true;
                }
                self.data(base);
            }
            Expr::Unary { op, arg } => {
                self.f.ops.insert(match op {
                    UnOp::Neg => Op::Neg,
                    UnOp::Not | UnOp::LogicalNot => Op::Not,
                });
                self.data(arg);
            }
            Expr::Binary { op: op @ (BinOp::Shl | BinOp::Shr), lhs, rhs } => {
                self.binary(*op, lhs, rhs);
                let by = self.shift_amount(rhs);
                self.f.shift_by.insert(by);
                self.data(lhs);
            }
            Expr::Binary { op, lhs, rhs } => {
                self.binary(*op, lhs, rhs);
                self.data(lhs);
                self.data(rhs);
            }
            Expr::CompareBy { predicate, lhs, rhs } => {
                self.f.ops.insert(Op::Compare);
                match literal(predicate).and_then(|c| crate::sema::ir::comparison_of_code(c as u8)) {
                    Some(p) => {
                        self.f.predicates.insert(predicate_word(p));
                    }
                    None => self.f.ordered_by_parameter = true,
                }
                self.note_sign(lhs);
                self.data(lhs);
                self.data(rhs);
            }
            Expr::OperateBy { family, code, lhs, rhs } => {
                match literal(code).and_then(|c| crate::sema::ir::operator_of_code(*family, c)) {
                    Some(op) => self.binary(op, lhs, rhs),
                    None => self.operation_by_parameter(*family),
                }
                self.data(lhs);
                self.data(rhs);
            }
            Expr::Select { cond, then, otherwise } => {
                // Outcomes that read no data (`1`, `0`, a parameter's all-ones).
                let is_flag = |e: &Expr| !reads_data(e, self) && !mentions_argument(e, self.sema);
                if is_flag(then) && is_flag(otherwise) {
                    // A comparison's outcome as a number: the comparison is the operation.
                    self.data(cond);
                } else if reads_data(cond, self) {
                    self.f.conditional = true;
                }
                self.data(then);
                self.data(otherwise);
            }
            Expr::Call { func, args } => self.call_data(func, args),
        }
    }

    /// A call's operation, and the data among its arguments.
    fn call_data(&mut self, func: &str, args: &[Expr]) {
        self.call(func, args);
        // Built-ins take their widths, flags and bounds after the value.
        let data_args = match func {
            "SignExtend" | "ZeroExtend" | "Truncate" | "Saturate" | "SaturateU" | "Signed" | "Unsigned"
            | "AsInteger" | "WrapAs" | "SaturateAs" | "NarrowAs" | "ShiftInt" => 1,
            _ => args.len(),
        };
        if func == "ShiftInt" {
            if let Some(amount) = args.get(1) {
                let by = self.shift_amount(amount);
                self.f.shift_by.insert(by);
            }
        }
        args.iter().take(data_args).for_each(|a| self.data(a));
    }

    /// An operation of `family` a class parameter picks.
    fn operation_by_parameter(&mut self, family: OperatorFamily) {
        self.f.ops.insert(match family {
            OperatorFamily::Additive => Op::AddOrSub,
            OperatorFamily::Bitwise => Op::Logic,
            OperatorFamily::Shift => Op::Shift,
        });
    }

    /// Whether `e` is a whole register: an argument or a local copied from one.
    fn is_register(&self, e: &Expr) -> bool {
        match e {
            Expr::Var(v) => self.arg(v).is_some() || self.registers.contains(v),
            _ => false,
        }
    }

    /// Where a shift's amount comes from.
    fn shift_amount(&self, e: &Expr) -> ShiftBy {
        if !reads_data(e, self) {
            let immediate = |a: &&crate::sema::ir::Arg| a.kind == ArgKind::Immediate;
            let names: BTreeSet<String> = self.sema.args.iter().filter(immediate).map(|a| a.name.clone()).collect();
            return if mentions_any(e, &names) { ShiftBy::Immediate } else { ShiftBy::Constant };
        }
        let steps = any_expr(
            e,
            |x| matches!(x, Expr::Slice { hi, lo, .. } if mentions_any(hi, &self.loop_vars) || mentions_any(lo, &self.loop_vars)),
        );
        if steps {
            ShiftBy::PerElement
        } else {
            ShiftBy::Uniform
        }
    }

    /// Whether a loop over `var` steps through 128-bit lanes, each computed
    /// by an inner loop or a helper function.
    fn per_lane(&self, var: &str, body: &[Stmt]) -> bool {
        let steps = |a: &Expr, b: &Expr| matches!(a, Expr::Var(v) if v == var) && literal(b) == Some(128);
        let lane_step = |e: &Expr| {
            any_expr(
                e,
                |x| matches!(x, Expr::Binary { op: BinOp::Mul, lhs, rhs } if steps(lhs, rhs) || steps(rhs, lhs)),
            )
        };
        let helper = |e: &Expr| matches!(e, Expr::Call { func, .. } if self.sema.function(func).is_some());
        let mut by_lane = false;
        let mut inner = false;
        for st in body {
            match &st.kind {
                StmtKind::For { .. } => {
                    let mut b = vec![st.clone()];
                    crate::sema::visit::walk_stmts_mut(
                        &mut b,
                        &mut |e: &mut Expr| {
                            if lane_step(e) {
                                by_lane = true;
                            }
                        },
                        &mut |_| {},
                    );
                    inner = true;
                }
                StmtKind::Assign { place, value } => {
                    if place.range.as_ref().is_some_and(|(hi, lo)| lane_step(hi) || lane_step(lo)) && helper(value) {
                        by_lane = true;
                        inner = true;
                    }
                    if lane_step(value) {
                        by_lane = true;
                    }
                }
                _ => {}
            }
        }
        by_lane && inner
    }

    /// Broadcasts and interleaves: what one loop's body reads per trip.
    fn loop_body(&mut self, body: &[Stmt]) {
        let mut sources = BTreeSet::new();
        for st in body {
            if let StmtKind::Assign { place, value } = &st.kind {
                if place.var != self.sema.result.name {
                    continue;
                }
                if let Expr::Slice { base, hi, lo } = value {
                    if let Expr::Var(v) = &**base {
                        let param = self.sema.functions.iter().any(|f| f.params.contains(v));
                        if param || self.arg(v).is_some_and(|a| matches!(a.kind, ArgKind::Vector | ArgKind::Scalar)) {
                            sources.insert(v.clone());
                            let fixed = !mentions_any(hi, &self.loop_vars) && !mentions_any(lo, &self.loop_vars);
                            if fixed && body.len() == 1 {
                                self.f.broadcasts = true;
                            }
                        }
                    }
                }
            }
        }
        if sources.len() >= 2 {
            self.f.interleaves = true;
        }
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr) {
        let o = match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            BinOp::Div => Op::Div,
            BinOp::Rem => Op::Rem,
            BinOp::And | BinOp::LogicalAnd => Op::And,
            BinOp::Or | BinOp::LogicalOr => Op::Or,
            BinOp::Xor => Op::Xor,
            BinOp::Shl => Op::Shl,
            BinOp::Shr => Op::Shr,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.f.predicates.insert(predicate_word(op));
                Op::Compare
            }
        };
        self.f.ops.insert(o);
        match op {
            BinOp::Mul => {
                self.f.products += 1;
                for e in [lhs, rhs] {
                    walk_expr(e, &mut |x| {
                        if let Expr::Slice { base, .. } = x {
                            if let Expr::Var(v) = &**base {
                                self.f.factors.insert(v.clone());
                            }
                        }
                    });
                }
                self.note_sign(lhs);
                self.note_sign(rhs);
            }
            BinOp::Div | BinOp::Rem | BinOp::Shr | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => self.note_sign(lhs),
            BinOp::Add | BinOp::Sub => {
                for e in [lhs, rhs] {
                    if let Expr::Int(n) = e {
                        self.f.added_literals.insert(n.clone());
                    }
                }
                if let (Some(a), Some(b)) = (element_of(lhs), element_of(rhs)) {
                    if a == b && self.arg(a).is_some() {
                        self.f.pairwise = true;
                    }
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, func: &str, args: &[Expr]) {
        let arg0 = args.first();
        // A literal extended or cast is a constant, not an operation on
        // data; a whole register extended is the register read.
        if matches!(arg0, Some(Expr::Int(_))) || arg0.is_some_and(|a| self.is_register(a)) {
            return;
        }
        if let Some(sign) = stated_sign(func, args) {
            self.f.explicit_signs.insert(sign);
        }
        match func {
            "Saturate" | "SaturateU" => {
                self.f.saturates = true;
                if func == "SaturateU" {
                    self.f.signs.insert(Sign::Unsigned);
                } else if let Some(a) = arg0 {
                    self.note_sign(a);
                }
            }
            "SaturateAs" => {
                self.f.saturates = true;
                if let Some(s) = flag_sign(args.get(2)) {
                    self.f.signs.insert(s);
                }
            }
            "NarrowAs" => {
                match literal(args.get(3).unwrap_or(&Expr::int(0))) {
                    Some(0) => self.f.truncates = true,
                    Some(_) => self.f.saturates = true,
                    None => {
                        self.f.truncates = true;
                        self.f.saturates = true;
                    }
                }
                if let Some(s) = flag_sign(args.get(2)) {
                    self.f.signs.insert(s);
                }
            }
            "Truncate" | "WrapAs" => self.f.truncates = true,
            "SignExtend" | "ZeroExtend" => {
                self.f.extends = true;
                self.f.extend_signs.insert(if func == "SignExtend" { Sign::Signed } else { Sign::Unsigned });
            }
            "Abs" => {
                self.f.ops.insert(Op::Abs);
            }
            "Max" | "Min" => {
                self.f.ops.insert(if func == "Max" { Op::Max } else { Op::Min });
                if let Some(a) = arg0 {
                    self.note_sign(a);
                }
            }
            "PopCount" => {
                self.f.ops.insert(Op::PopCount);
            }
            "CountLeadingZeros" => {
                self.f.ops.insert(Op::CountLeadingZeros);
            }
            "CountLeadingSignBits" => {
                self.f.ops.insert(Op::CountLeadingSignBits);
            }
            "GaloisInverse" => {
                self.f.ops.insert(Op::Galois);
            }
            "ShiftInt" => {
                let op = match args.get(1).and_then(literal) {
                    Some(n) if n < 0 => Op::Shr,
                    Some(_) => Op::Shl,
                    None => Op::Shift,
                };
                self.f.ops.insert(op);
                if let Some(a) = arg0 {
                    self.note_sign(a);
                }
            }
            _ => {}
        }
    }
}

/// Whether `e` reads a register argument's bits or a local computed from them.
fn reads_data(e: &Expr, scan: &Scan) -> bool {
    any_expr(e, |x| match x {
        Expr::Slice { base, .. } | Expr::Bit { base, .. } => match &**base {
            Expr::Var(v) => match scan.arg(v) {
                Some(a) => a.kind != ArgKind::Immediate,
                None => !scan.index_vars.contains(v),
            },
            _ => false,
        },
        _ => false,
    })
}
