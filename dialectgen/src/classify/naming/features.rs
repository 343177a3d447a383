//! What a class template computes, read off its statements: the
//! operations applied to data (not to indices), signedness at the places
//! it matters, saturation, rounding, and how elements are chosen.

use super::shape::{register_copies, unwrap_register};
use crate::sema::ir::{ArgKind, BinOp, Expr, OperatorFamily, Semantics, Stmt, StmtKind, UnOp};
use crate::sema::visit::{any_expr, walk_expr};
use std::collections::BTreeSet;

/// How a value's elements read as integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Sign {
    Signed,
    Unsigned,
    /// Chosen by a class parameter (a signedness flag).
    ByParameter,
}

/// The operations a template applies to data (not to indices), in the
/// order their words appear in a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Op {
    Galois,
    Abs,
    Neg,
    Add,
    Sub,
    AddOrSub,
    Mul,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Logic,
    Shl,
    Shr,
    Shift,
    PopCount,
    CountLeadingZeros,
    CountLeadingSignBits,
    Compare,
}

impl Op {
    pub(super) fn word(self) -> &'static str {
        match self {
            Op::Galois => "galois",
            Op::Abs => "abs",
            Op::Neg => "neg",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::AddOrSub => "add_or_sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Rem => "rem",
            Op::Min => "min",
            Op::Max => "max",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Not => "not",
            Op::Logic => "logic",
            Op::Shl => "shl",
            Op::Shr => "shr",
            Op::Shift => "shift",
            Op::PopCount => "popcount",
            Op::CountLeadingZeros => "clz",
            Op::CountLeadingSignBits => "cls",
            Op::Compare => "cmp",
        }
    }
}

/// What a template does, read off its statements.
#[derive(Default)]
pub(super) struct Features {
    pub(super) ops: BTreeSet<Op>,
    /// Signedness of the operands of sign-sensitive operations.
    pub(super) signs: BTreeSet<Sign>,
    /// Fixed comparison predicates (`eq`, `gt`, …).
    pub(super) predicates: BTreeSet<&'static str>,
    pub(super) saturates: bool,
    pub(super) extends: bool,
    /// A narrowing that wraps (`Truncate`, a wrapping `NarrowAs`).
    pub(super) truncates: bool,
    /// A power of two added where the sum is then shifted right or its low bits dropped.
    pub(super) rounds: bool,
    /// Products in one result element.
    pub(super) products: usize,
    /// Registers read as factors of a product.
    pub(super) factors: BTreeSet<String>,
    /// A comparison whose predicate is a parameter (ordered ones among its values).
    pub(super) ordered_by_parameter: bool,
    /// An addition or subtraction of two elements of one operand.
    pub(super) pairwise: bool,
    /// An element is selected by data (a vector's element, a local computed from one).
    pub(super) data_index: bool,
    /// What is computed depends on an immediate or parameter through `CASE`.
    pub(super) case_on_argument: bool,
    /// A condition on data chooses between values.
    pub(super) conditional: bool,
    /// A literal added to a value.
    pub(super) added_literals: BTreeSet<num_bigint::BigInt>,
    /// A value's low bits dropped by a slice of a local (`v1[16:1]`).
    pub(super) drops_low_bits: bool,
    /// Where shift amounts come from.
    pub(super) shift_by: BTreeSet<ShiftBy>,
    /// A class parameter chooses between branches computing different things.
    pub(super) alternatives: bool,
    /// The operation runs within each 128-bit lane (a loop over lanes
    /// around an inner loop or a helper).
    pub(super) in_lanes: bool,
    /// An immediate's bits choose between branches (a blend).
    pub(super) chosen_by_immediate: bool,
    /// Signedness said outright (`AsInteger`, a saturation's flag, `Signed`).
    pub(super) explicit_signs: BTreeSet<Sign>,
    /// Signedness of extensions.
    pub(super) extend_signs: BTreeSet<Sign>,
    /// A loop that runs while a condition on data holds (counting).
    pub(super) counts_while: bool,
    /// One element read in every trip of a loop (a bound that does not step).
    pub(super) broadcasts: bool,
    /// One loop body writes the result from two different registers.
    pub(super) interleaves: bool,
}

/// Where a shift amount comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ShiftBy {
    /// A number fixed by the class (a literal or a parameter).
    Constant,
    /// An immediate.
    Immediate,
    /// One value for every element (a register's low bits).
    Uniform,
    /// Each element its own amount.
    PerElement,
}

pub(super) struct Scan<'a> {
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
                    None => {
                        self.f.ops.insert(match family {
                            OperatorFamily::Additive => Op::AddOrSub,
                            OperatorFamily::Bitwise => Op::Logic,
                            OperatorFamily::Shift => Op::Shift,
                        });
                    }
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
            Expr::Call { func, args } => {
                self.call(func, args);
                // Built-ins take their widths, flags and bounds after the value.
                let data_args = match func.as_str() {
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
        }
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

/// `x := x + …product…`: a product summed into a running total (a loop's
/// reduction counts as several products in one element).
pub(super) fn accumulates_product(var: &str, value: &Expr) -> bool {
    let Expr::Binary { op: BinOp::Add, lhs, rhs } = value else { return false };
    let total = |e: &Expr| matches!(unwrap_register(e), Expr::Var(v) if v == var);
    let has_mul = |e: &Expr| any_expr(e, |x| matches!(x, Expr::Binary { op: BinOp::Mul, .. }));
    (total(lhs) && has_mul(rhs)) || (total(rhs) && has_mul(lhs))
}

pub(super) fn literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(n) => i64::try_from(n).ok(),
        _ => None,
    }
}

/// The signedness a cast or a signedness flag states outright.
fn stated_sign(func: &str, args: &[Expr]) -> Option<Sign> {
    match func {
        "Signed" => Some(Sign::Signed),
        "Unsigned" => Some(Sign::Unsigned),
        "AsInteger" => flag_sign(args.get(1)),
        "WrapAs" | "SaturateAs" | "NarrowAs" => flag_sign(args.get(2)),
        _ => None,
    }
}

pub(super) fn flag_sign(e: Option<&Expr>) -> Option<Sign> {
    match e? {
        Expr::Int(n) => Some(if n == &num_bigint::BigInt::from(0) { Sign::Signed } else { Sign::Unsigned }),
        _ => Some(Sign::ByParameter),
    }
}

pub(super) fn predicate_word(op: BinOp) -> &'static str {
    match op {
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
        _ => "",
    }
}

/// The variable an element read comes from (`a0[..]`, `SignExtend(a0[..])`).
pub(super) fn element_of(e: &Expr) -> Option<&str> {
    match e {
        Expr::Slice { base, .. } => match &**base {
            Expr::Var(v) => Some(v),
            _ => None,
        },
        Expr::Call { func, args } if matches!(func.as_str(), "SignExtend" | "ZeroExtend" | "Signed" | "Unsigned") => {
            args.first().and_then(element_of)
        }
        Expr::Call { func, args } if func == "AsInteger" => args.first().and_then(element_of),
        _ => None,
    }
}

/// Whether `e` reads a register argument's bits or a local computed from them.
pub(super) fn reads_data(e: &Expr, scan: &Scan) -> bool {
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

/// Whether `e` mentions an argument (an immediate's bits, a vector's).
pub(super) fn mentions_argument(e: &Expr, sema: &Semantics) -> bool {
    any_expr(e, |x| {
        matches!(x, Expr::Var(v)
            if sema.functions.iter().any(|f| f.params.contains(v)) || sema.args.iter().any(|a| &a.name == v))
    })
}

/// Whether the result depends on any argument at all.
pub(super) fn reads_any_argument(s: &Semantics) -> bool {
    let mut body = s.body.clone();
    let mut found = false;
    crate::sema::visit::walk_stmts_mut(
        &mut body,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if s.args.iter().any(|a| &a.name == v) {
                    found = true;
                }
            }
        },
        &mut |_| {},
    );
    found
}

/// Whether `e` mentions one of `vars`.
pub(super) fn mentions_any(e: &Expr, vars: &BTreeSet<String>) -> bool {
    any_expr(e, |x| matches!(x, Expr::Var(v) if vars.contains(v)))
}

/// Loop counters, and locals assigned from expressions that mention them
/// (`v1 := v0 * 8`), in statement order.
pub(super) fn loop_vars(s: &Semantics) -> BTreeSet<String> {
    fn walk(body: &[Stmt], vars: &mut BTreeSet<String>) {
        for st in body {
            match &st.kind {
                StmtKind::For { var, .. } => {
                    vars.insert(var.clone());
                }
                StmtKind::Assign { place, value } if place.range.is_none() && mentions_any(value, vars) => {
                    vars.insert(place.var.clone());
                }
                _ => {}
            }
            for b in crate::sema::visit::child_blocks(st) {
                walk(b, vars);
            }
        }
    }
    let mut vars = BTreeSet::new();
    for f in &s.functions {
        walk(&f.body, &mut vars);
    }
    walk(&s.body, &mut vars);
    vars
}

/// Variables used inside bit positions, loop bounds and `CASE` scrutinees.
pub(super) fn index_vars(s: &Semantics) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    let mut add = |e: &Expr| {
        walk_expr(e, &mut |x| {
            if let Expr::Var(v) = x {
                vars.insert(v.clone());
            }
        });
    };
    fn in_expr(e: &Expr, add: &mut impl FnMut(&Expr)) {
        match e {
            Expr::Slice { base, hi, lo } => {
                add(hi);
                add(lo);
                in_expr(base, add);
            }
            Expr::Bit { base, index } => {
                add(index);
                in_expr(base, add);
            }
            Expr::Unary { arg, .. } => in_expr(arg, add),
            Expr::Binary { lhs, rhs, .. } | Expr::CompareBy { lhs, rhs, .. } | Expr::OperateBy { lhs, rhs, .. } => {
                in_expr(lhs, add);
                in_expr(rhs, add);
            }
            Expr::Select { cond, then, otherwise } => {
                in_expr(cond, add);
                in_expr(then, add);
                in_expr(otherwise, add);
            }
            Expr::Call { args, .. } => args.iter().for_each(|a| in_expr(a, add)),
            Expr::Int(_) | Expr::Var(_) => {}
        }
    }
    fn in_stmts(body: &[Stmt], add: &mut impl FnMut(&Expr)) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { place, value } => {
                    if let Some((hi, lo)) = &place.range {
                        add(hi);
                        add(lo);
                    }
                    in_expr(value, add);
                }
                StmtKind::For { from, to, body, .. } => {
                    add(from);
                    add(to);
                    in_stmts(body, add);
                }
                StmtKind::While { cond, body } => {
                    in_expr(cond, add);
                    in_stmts(body, add);
                }
                StmtKind::If { cond, then, otherwise } => {
                    in_expr(cond, add);
                    in_stmts(then, add);
                    in_stmts(otherwise, add);
                }
                StmtKind::Case { scrutinee, arms } => {
                    add(scrutinee);
                    arms.iter().for_each(|a| in_stmts(&a.body, add));
                }
                StmtKind::Return { value } => in_expr(value, add),
                StmtKind::Call { args, .. } => args.iter().for_each(|a| in_expr(a, add)),
            }
        }
    }
    for f in &s.functions {
        in_stmts(&f.body, &mut add);
    }
    in_stmts(&s.body, &mut add);
    // Arguments are data even where they also give a position.
    for a in &s.args {
        if a.kind != ArgKind::Immediate {
            vars.remove(&a.name);
        }
    }
    vars
}

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
