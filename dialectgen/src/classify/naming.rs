//! Names for similarity classes, derived from what their template computes:
//! the operation, how elements are read (signed, unsigned, mixed),
//! widening or narrowing, saturation, rounding, pairwise or lane-wise
//! structure. Equal templates give equal names on every regeneration, and
//! the name of one class does not depend on which other classes exist,
//! except where two classes would share a name: then each takes a
//! fingerprint of its template as a suffix.
//!
//! Nothing here knows an ISA: the features are read off the semantics IR.

use super::engine::{member_semantics, SimilarityClass};
use crate::sema::ir::{ArgKind, BinOp, Expr, OperatorFamily, Semantics, Stmt, StmtKind, UnOp};
use crate::sema::print::semantics_to_string;
use std::collections::{BTreeMap, BTreeSet};

/// How a value's elements read as integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sign {
    Signed,
    Unsigned,
    /// Chosen by a class parameter (a signedness flag).
    ByParameter,
}

/// The operations a template applies to data (not to indices), in the
/// order their words appear in a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
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
    fn word(self) -> &'static str {
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
struct Features {
    ops: BTreeSet<Op>,
    /// Signedness of the operands of sign-sensitive operations.
    signs: BTreeSet<Sign>,
    /// Fixed comparison predicates (`eq`, `gt`, …).
    predicates: BTreeSet<&'static str>,
    saturates: bool,
    extends: bool,
    /// A narrowing that wraps (`Truncate`, a wrapping `NarrowAs`).
    truncates: bool,
    /// A power of two added where the sum is then shifted right or its low bits dropped.
    rounds: bool,
    /// Products in one result element.
    products: usize,
    /// Registers read as factors of a product.
    factors: BTreeSet<String>,
    /// A comparison whose predicate is a parameter (ordered ones among its values).
    ordered_by_parameter: bool,
    /// An addition or subtraction of two elements of one operand.
    pairwise: bool,
    /// An element is selected by data (a vector's element, a local computed from one).
    data_index: bool,
    /// What is computed depends on an immediate or parameter through `CASE`.
    case_on_argument: bool,
    /// A condition on data chooses between values.
    conditional: bool,
    /// A literal added to a value.
    added_literals: BTreeSet<num_bigint::BigInt>,
    /// A value's low bits dropped by a slice of a local (`v1[16:1]`).
    drops_low_bits: bool,
    /// Where shift amounts come from.
    shift_by: BTreeSet<ShiftBy>,
    /// A class parameter chooses between branches computing different things.
    alternatives: bool,
    /// The operation runs within each 128-bit lane (a loop over lanes
    /// around an inner loop or a helper).
    in_lanes: bool,
    /// An immediate's bits choose between branches (a blend).
    chosen_by_immediate: bool,
    /// Signedness said outright (`AsInteger`, a saturation's flag, `Signed`).
    explicit_signs: BTreeSet<Sign>,
    /// Signedness of extensions.
    extend_signs: BTreeSet<Sign>,
    /// A loop that runs while a condition on data holds (counting).
    counts_while: bool,
    /// One element read in every trip of a loop (a bound that does not step).
    broadcasts: bool,
    /// One loop body writes the result from two different registers.
    interleaves: bool,
}

/// Where a shift amount comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum ShiftBy {
    /// A number fixed by the class (a literal or a parameter).
    Constant,
    /// An immediate.
    Immediate,
    /// One value for every element (a register's low bits).
    Uniform,
    /// Each element its own amount.
    PerElement,
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
                    self.loop_body(var, body);
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
            Expr::Call { func, args } => match func.as_str() {
                "Signed" => Some((Sign::Signed, true)),
                "Unsigned" => Some((Sign::Unsigned, true)),
                "AsInteger" => flag_sign(args.get(1)).map(|s| (s, true)),
                "WrapAs" | "SaturateAs" | "NarrowAs" => flag_sign(args.get(2)).map(|s| (s, true)),
                "SignExtend" | "ZeroExtend" => {
                    let inner = args.first().and_then(|a| self.sign_of(a)).filter(|(_, outright)| *outright);
                    inner.or(Some((if func == "SignExtend" { Sign::Signed } else { Sign::Unsigned }, false)))
                }
                "SaturateU" => Some((Sign::Unsigned, false)),
                "Saturate" | "Abs" | "Max" | "Min" | "ShiftInt" => args.first().and_then(|a| self.sign_of(a)),
                _ => None,
            },
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
        let mut steps = false;
        let mut e = e.clone();
        crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
            if let Expr::Slice { hi, lo, .. } = x {
                if mentions_any(hi, &self.loop_vars) || mentions_any(lo, &self.loop_vars) {
                    steps = true;
                }
            }
        });
        if steps {
            ShiftBy::PerElement
        } else {
            ShiftBy::Uniform
        }
    }

    /// Whether a loop over `var` steps through 128-bit lanes, each computed
    /// by an inner loop or a helper function.
    fn per_lane(&self, var: &str, body: &[Stmt]) -> bool {
        let lane_step = |e: &Expr| {
            let mut found = false;
            let mut e = e.clone();
            crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
                if let Expr::Binary { op: BinOp::Mul, lhs, rhs } = x {
                    let steps = |a: &Expr, b: &Expr| matches!(a, Expr::Var(v) if v == var) && literal(b) == Some(128);
                    if steps(lhs, rhs) || steps(rhs, lhs) {
                        found = true;
                    }
                }
            });
            found
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
    fn loop_body(&mut self, var: &str, body: &[Stmt]) {
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
        let _ = var;
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
                    let mut e = e.clone();
                    crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
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
        let explicit = match func {
            "Signed" => Some(Sign::Signed),
            "Unsigned" => Some(Sign::Unsigned),
            "AsInteger" => flag_sign(args.get(1)),
            "WrapAs" | "SaturateAs" | "NarrowAs" => flag_sign(args.get(2)),
            _ => None,
        };
        if let Some(sign) = explicit {
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
fn accumulates_product(var: &str, value: &Expr) -> bool {
    let Expr::Binary { op: BinOp::Add, lhs, rhs } = value else { return false };
    let total = |e: &Expr| matches!(unwrap_register(e), Expr::Var(v) if v == var);
    let has_mul = |e: &Expr| {
        let mut found = false;
        let mut e = e.clone();
        crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
            if matches!(x, Expr::Binary { op: BinOp::Mul, .. }) {
                found = true;
            }
        });
        found
    };
    (total(lhs) && has_mul(rhs)) || (total(rhs) && has_mul(lhs))
}

fn literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Int(n) => i64::try_from(n).ok(),
        _ => None,
    }
}

fn flag_sign(e: Option<&Expr>) -> Option<Sign> {
    match e? {
        Expr::Int(n) => Some(if n == &num_bigint::BigInt::from(0) { Sign::Signed } else { Sign::Unsigned }),
        _ => Some(Sign::ByParameter),
    }
}

fn predicate_word(op: BinOp) -> &'static str {
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
fn element_of(e: &Expr) -> Option<&str> {
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
fn reads_data(e: &Expr, scan: &Scan) -> bool {
    let mut found = false;
    let mut e = e.clone();
    crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
        if let Expr::Slice { base, .. } | Expr::Bit { base, .. } = x {
            if let Expr::Var(v) = &**base {
                let data = match scan.arg(v) {
                    Some(a) => a.kind != ArgKind::Immediate,
                    None => !scan.index_vars.contains(v),
                };
                if data {
                    found = true;
                }
            }
        }
    });
    found
}

/// Whether `e` mentions an argument (an immediate's bits, a vector's).
fn mentions_argument(e: &Expr, sema: &Semantics) -> bool {
    let mut found = false;
    let mut e = e.clone();
    crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
        if let Expr::Var(v) = x {
            let param = sema.functions.iter().any(|f| f.params.contains(v));
            if param || sema.args.iter().any(|a| &a.name == v) {
                found = true;
            }
        }
    });
    found
}

/// Whether the result depends on any argument at all.
fn reads_any_argument(s: &Semantics) -> bool {
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
fn mentions_any(e: &Expr, vars: &BTreeSet<String>) -> bool {
    let mut found = false;
    let mut e = e.clone();
    crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
        if let Expr::Var(v) = x {
            if vars.contains(v) {
                found = true;
            }
        }
    });
    found
}

/// Loop counters, and locals assigned from expressions that mention them
/// (`v1 := v0 * 8`), in statement order.
fn loop_vars(s: &Semantics) -> BTreeSet<String> {
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
fn index_vars(s: &Semantics) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    let mut add = |e: &Expr| {
        let mut e = e.clone();
        crate::sema::visit::walk_expr_mut(&mut e, &mut |x: &mut Expr| {
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

fn features(s: &Semantics) -> Features {
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

/// The innermost value under register-level wrappers (extension to a
/// register width, a slice).
fn unwrap_register(e: &Expr) -> &Expr {
    match e {
        Expr::Call { func, args } if matches!(func.as_str(), "ZeroExtend" | "SignExtend") && !args.is_empty() => {
            unwrap_register(&args[0])
        }
        Expr::Slice { base, .. } => unwrap_register(base),
        _ => e,
    }
}

/// Locals that hold a whole argument (`v1 := ZeroExtend(a0, 128)[bit:0]`),
/// as front ends copy registers before reading their elements.
fn register_copies(s: &Semantics) -> BTreeSet<String> {
    let mut copies = BTreeSet::new();
    for st in &s.body {
        if let StmtKind::Assign { place, value } = &st.kind {
            if place.range.is_none() {
                if let Expr::Var(v) = unwrap_register(value) {
                    if s.args.iter().any(|a| &a.name == v && a.kind == ArgKind::Vector) || copies.contains(v) {
                        copies.insert(place.var.clone());
                    }
                }
            }
        }
    }
    copies
}

/// Locals whose whole value becomes the result (`dst := v0[bit:0]`,
/// `v0 := ZeroExtend(v3, 128)`), found backwards from the result.
fn result_copies(s: &Semantics) -> BTreeSet<String> {
    let mut copies = BTreeSet::from([s.result.name.clone()]);
    for st in s.body.iter().rev() {
        if let StmtKind::Assign { place, value } = &st.kind {
            if copies.contains(&place.var) {
                if let Expr::Var(v) = unwrap_register(value) {
                    copies.insert(v.clone());
                }
            }
        }
    }
    copies
}

/// Element widths of a concrete instance: those its vector arguments are
/// read in and those its result is written in.
fn element_widths(s: &Semantics) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let (mut reads, mut writes) = (BTreeSet::new(), BTreeSet::new());
    let width = |hi: &Expr, lo: &Expr| -> Option<u32> {
        let (h, l) = (index_value(hi)?, index_value(lo)?);
        u32::try_from(h - l + 1).ok().filter(|w| *w > 0)
    };
    let mut vectors: BTreeSet<String> =
        s.args.iter().filter(|a| a.kind == ArgKind::Vector).map(|a| a.name.clone()).collect();
    vectors.extend(register_copies(s));
    let results = result_copies(s);
    let mut body = s.body.clone();
    let mut on_expr = |e: &mut Expr| {
        if let Expr::Slice { base, hi, lo } = e {
            if matches!(&**base, Expr::Var(v) if vectors.contains(v.as_str())) {
                reads.extend(width(hi, lo));
            }
        }
    };
    crate::sema::visit::walk_stmts_mut(&mut body, &mut on_expr, &mut |_| {});
    fn dst_writes(
        body: &[Stmt],
        results: &BTreeSet<String>,
        out: &mut BTreeSet<u32>,
        width: &dyn Fn(&Expr, &Expr) -> Option<u32>,
    ) {
        for st in body {
            if let StmtKind::Assign { place, value } = &st.kind {
                if results.contains(&place.var) && !matches!(value, Expr::Int(_)) {
                    if let Some((hi, lo)) = &place.range {
                        out.extend(width(hi, lo));
                    }
                }
            }
            for b in crate::sema::visit::child_blocks(st) {
                dst_writes(b, results, out, width);
            }
        }
    }
    dst_writes(&s.body, &results, &mut writes, &width);
    (reads, writes)
}

/// An index expression's value with every variable at 0 (loop counters at
/// their first trip): enough to measure a slice whose bounds move together.
fn index_value(e: &Expr) -> Option<i128> {
    match e {
        Expr::Int(n) => i128::try_from(n).ok(),
        Expr::Var(_) => Some(0),
        Expr::Binary { op, lhs, rhs } => {
            let (a, b) = (index_value(lhs)?, index_value(rhs)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Shapes a concrete instance's result has: one element only (`scalar`),
/// or its high half computed over a copy of an operand (`high`).
fn result_shape(s: &Semantics) -> Option<&'static str> {
    let (_, writes) = element_widths(s);
    if writes.first().is_some_and(|w| *w == s.result.width) && s.result.width <= 64 && s.result.kind != ArgKind::Mask {
        return Some("scalar");
    }
    let results = result_copies(s);
    let mut copied_operand = false;
    let mut high_half = false;
    for st in &s.body {
        if let StmtKind::Assign { place, value } = &st.kind {
            if !results.contains(&place.var) {
                continue;
            }
            match &place.range {
                None => {
                    if let Expr::Var(v) = unwrap_register(value) {
                        if s.args.iter().any(|a| &a.name == v && a.kind == ArgKind::Vector) {
                            copied_operand = true;
                        }
                    }
                }
                Some((hi, lo)) => {
                    let half = i128::from(s.result.width / 2);
                    if index_value(lo) == Some(half) && index_value(hi) == Some(2 * half - 1) {
                        high_half = true;
                    }
                }
            }
        }
    }
    (copied_operand && high_half).then_some("high")
}

/// A shape every member's result has (see [`result_shape`]).
fn shape_word(class: &SimilarityClass) -> Option<&'static str> {
    let mut shapes = class.members.iter().map(|m| result_shape(&member_semantics(class, m)));
    let first = shapes.next()??;
    shapes.all(|w| w == Some(first)).then_some(first)
}

/// How result elements compare with the elements read, in every member.
fn resize_word(class: &SimilarityClass) -> Option<&'static str> {
    let mut words = class.members.iter().map(|m| {
        let (reads, writes) = element_widths(&member_semantics(class, m));
        match (reads.first(), writes.first()) {
            (Some(r), Some(w)) if w > r => Some("widen"),
            (Some(r), Some(w)) if w < r => Some("narrow"),
            _ => None,
        }
    });
    let first = words.next()??;
    words.all(|w| w == Some(first)).then_some(first)
}

/// The name a class's semantics give it, before any collision suffix.
pub fn semantic_name(class: &SimilarityClass) -> String {
    let t = &class.template;
    let f = features(t);
    let has = |o: Op| f.ops.contains(&o);
    let mut words: Vec<&str> = Vec::new();
    let mask_only = t.result.kind == ArgKind::Mask
        && t.args.iter().all(|a| matches!(a.kind, ArgKind::Mask | ArgKind::Immediate | ArgKind::Scalar));
    if mask_only {
        words.push("mask");
    }
    let arithmetic: Vec<Op> = f.ops.iter().copied().collect();
    let mut sign_matters = f.saturates || f.ordered_by_parameter;
    if has(Op::Galois) {
        words.push("galois_affine_inv");
    } else if has(Op::Mul) && f.products >= 2 && (has(Op::Add) || has(Op::AddOrSub)) {
        words.push("dot");
        let registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector);
        if registers.clone().any(|a| !f.factors.contains(&a.name)) {
            words.push("acc");
        }
        sign_matters = true;
    } else if has(Op::Abs) && has(Op::Sub) && has(Op::Add) && !has(Op::Mul) {
        words.push("sad");
        sign_matters = true;
    } else if has(Op::Add) && has(Op::Shr) && f.rounds && !has(Op::Mul) && f.ops.len() == 2 {
        words.push("avg");
        sign_matters = true;
    } else if has(Op::Mul) && (has(Op::Shr) || f.drops_low_bits) {
        words.push("mul_high");
        sign_matters = true;
    } else if has(Op::Shl) && has(Op::Shr) && has(Op::Or) && !has(Op::Mul) {
        // Registers shifted (not only giving per-element amounts).
        let mut registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector).count();
        if f.shift_by.contains(&ShiftBy::PerElement) {
            registers -= 1;
        }
        words.push(if registers <= 1 { "rotate" } else { "funnel_shift" });
    } else if f.counts_while {
        words.push("count_leading");
    } else if !arithmetic.is_empty() {
        for o in &arithmetic {
            if matches!(o, Op::Min | Op::Max | Op::Shr | Op::Div | Op::Rem | Op::Mul | Op::Shift) {
                sign_matters = true;
            }
            if *o == Op::Compare && f.predicates.iter().any(|p| !matches!(*p, "eq" | "ne")) {
                sign_matters = true;
            }
        }
        let shown: Vec<&str> = arithmetic.iter().map(|o| o.word()).take(4).collect();
        if f.alternatives && shown.len() > 1 {
            // `add_or_sub`: a parameter picks the operation.
            for (i, w) in shown.iter().enumerate() {
                if i > 0 {
                    words.push("or");
                }
                words.push(w);
            }
        } else {
            words.extend(shown);
        }
        if has(Op::Compare) && f.predicates.len() == 1 {
            words.extend(f.predicates.iter());
        }
    } else if f.extends && !f.saturates && !f.truncates {
        words.push("extend");
        sign_matters = true;
    } else if f.saturates {
        let registers = t.args.iter().filter(|a| a.kind == ArgKind::Vector).count();
        words.push(match resize_word(class) {
            Some("narrow") if registers >= 2 => "pack",
            Some("narrow") => "narrow",
            _ => "convert",
        });
        sign_matters = true;
    } else if f.truncates {
        words.push("truncate");
    } else if f.data_index {
        words.push("permute_var");
    } else if f.broadcasts {
        words.push("broadcast");
    } else if f.interleaves {
        words.push("interleave");
    } else if f.conditional {
        words.push("select");
    } else if f.chosen_by_immediate {
        words.push("blend");
    } else if f.case_on_argument {
        words.push("permute_imm");
    } else if !reads_any_argument(t) {
        words.push("zero");
    } else {
        words.push("move");
    }
    if f.pairwise && !words.contains(&"dot") && !words.contains(&"sad") {
        words.push("pairwise");
    }
    if f.saturates {
        words.push("sat");
    }
    if has(Op::Shl) || has(Op::Shr) || has(Op::Shift) {
        match f.shift_by.iter().collect::<Vec<_>>().as_slice() {
            [ShiftBy::Immediate] => words.push("by_imm"),
            [ShiftBy::Uniform] => words.push("by_scalar"),
            _ => {}
        }
    }
    if f.rounds && !words.contains(&"avg") {
        words.push("round");
    }
    if !words.contains(&"permute_var") && f.data_index {
        words.push("var_index");
    }
    if sign_matters {
        let said = [&f.signs, &f.explicit_signs, &f.extend_signs].into_iter().find(|s| !s.is_empty());
        let said = said.unwrap_or(&f.signs);
        let signs: Vec<Sign> = said.iter().copied().collect();
        match signs.as_slice() {
            [Sign::Signed] => words.push("s"),
            [Sign::Unsigned] => words.push("u"),
            [Sign::Signed, Sign::Unsigned] => words.push("su"),
            _ => {}
        }
    }
    if let Some(w) = resize_word(class).filter(|_| t.result.kind != ArgKind::Mask) {
        let says_it = ["extend", "narrow", "truncate", "pack", "convert"];
        if !words.iter().any(|w| says_it.contains(w)) {
            words.push(w);
        }
    }
    if t.result.kind == ArgKind::Mask && !mask_only {
        words.push("to_mask");
    }
    if let Some(w) = shape_word(class) {
        words.push(w);
    }
    if f.in_lanes {
        words.push("in_lanes");
    }
    words.join("_")
}

/// A fingerprint of a class's template (FNV-1a of its printed semantics,
/// mask forms included), four hex digits or more where four collide.
fn fingerprint(class: &SimilarityClass) -> u64 {
    let text = format!("{}\n{:?}", semantics_to_string(&class.template), class.maskings);
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Names every class by [`semantic_name`]; classes that would share a name
/// take their template's fingerprint as a suffix (as many hex digits as
/// keep them apart), so a name never depends on the order classes come in.
pub fn name_classes(classes: &mut [SimilarityClass]) {
    let names: Vec<String> = classes.iter().map(semantic_name).collect();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, n) in names.iter().enumerate() {
        groups.entry(n).or_default().push(i);
    }
    let mut final_names = names.clone();
    for (base, members) in &groups {
        if members.len() == 1 {
            continue;
        }
        let prints: Vec<u64> = members.iter().map(|&i| fingerprint(&classes[i])).collect();
        let digits = (4..=16)
            .find(|d| {
                let cut: BTreeSet<String> = prints.iter().map(|p| format!("{p:016x}")[..*d].to_string()).collect();
                cut.len() == prints.len()
            })
            .unwrap_or(16);
        for (&i, p) in members.iter().zip(&prints) {
            final_names[i] = format!("{base}_{}", &format!("{p:016x}")[..digits]);
        }
    }
    // Identical templates and mask forms (never expected): first member's name decides the order.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut order: Vec<usize> = (0..classes.len()).collect();
    order.sort_by(|&a, &b| classes[a].members[0].intrinsic.cmp(&classes[b].members[0].intrinsic));
    for i in order {
        let n = seen.entry(final_names[i].clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            final_names[i] = format!("{}_{n}", final_names[i]);
        }
    }
    for (c, n) in classes.iter_mut().zip(final_names) {
        c.name = n;
    }
}
