//! Operators chosen by a number.
//!
//! `a + b` and `a - b` are one operation with the coefficient of `b` 1 or
//! -1; `a AND b`, `a OR b` and `a XOR b` are one bitwise operation with a
//! truth table, as a ternary-logic instruction carries its table in an immediate;
//! `a << n` and `a >> n` are one shift with a direction. The broad
//! canonical form writes such operators on values as [`Expr::OperateBy`],
//! so instructions that differ only in the operator they apply to their
//! operands read alike up to numbers, as comparisons already do with their
//! predicate codes.
//!
//! So are a narrowing that wraps and one that saturates (`NarrowAs` with a
//! flag), and a predicate's `&&`, `||` on truth values (truth tables).
//!
//! Only operators with an operand that reads a value of the instruction
//! (an argument, the result or a local holding one), outside bit positions
//! and loop bounds, are written so: index arithmetic keeps its operators,
//! for index normalization and the evaluator's linear bit positions.

use crate::sema::ir::{
    code_of_comparison, operator_code, BinOp, Expr, OperatorFamily, Semantics, Stmt, StmtKind, UnOp,
};
use crate::sema::visit::{child_blocks, child_blocks_mut, walk_semantics_mut};
use std::collections::{HashMap, HashSet};

/// Writes every operator of a family between two values of `s` as an
/// [`Expr::OperateBy`] with its code.
pub fn choose_operators_by_number(s: &mut Semantics) {
    let values = value_names(s);
    walk_semantics_mut(
        s,
        &mut |e: &mut Expr| {
            truth_values_as_bits(e);
            narrowing_by_number(e);
        },
        &mut |_| {},
    );
    for f in &mut s.functions {
        code_operators_in(&mut f.body, &values);
    }
    code_operators_in(&mut s.body, &values);
}

/// Codes the operators on values in the value positions of `body`: not in
/// bit positions (slice bounds, place ranges) or loop bounds, whose
/// arithmetic is index arithmetic.
fn code_operators_in(body: &mut [Stmt], values: &HashSet<String>) {
    for st in body.iter_mut() {
        match &mut st.kind {
            StmtKind::Assign { value: e, .. }
            | StmtKind::While { cond: e, .. }
            | StmtKind::If { cond: e, .. }
            | StmtKind::Case { scrutinee: e, .. }
            | StmtKind::Return { value: e } => code_operators(e, values),
            StmtKind::Call { args, .. } => args.iter_mut().for_each(|a| code_operators(a, values)),
            StmtKind::For { .. } => {}
        }
        for block in child_blocks_mut(st) {
            code_operators_in(block, values);
        }
    }
}

/// Codes every operator of a family between values in `e`, children first,
/// leaving bit positions alone.
fn code_operators(e: &mut Expr, values: &HashSet<String>) {
    match e {
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Slice { base, .. } | Expr::Bit { base, .. } => code_operators(base, values),
        Expr::Unary { arg, .. } => code_operators(arg, values),
        Expr::Binary { lhs, rhs, .. } | Expr::CompareBy { lhs, rhs, .. } | Expr::OperateBy { lhs, rhs, .. } => {
            code_operators(lhs, values);
            code_operators(rhs, values);
        }
        Expr::Select { cond, then, otherwise } => {
            [cond, then, otherwise].into_iter().for_each(|x| code_operators(x, values));
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|a| code_operators(a, values)),
    }
    let Expr::Binary { op, lhs, rhs } = e else { return };
    let Some((family, code)) = operator_code(*op) else { return };
    if !(reads(lhs, values) || reads(rhs, values)) {
        return;
    }
    let (lhs, rhs) = (std::mem::replace(lhs, Box::new(Expr::int(0))), std::mem::replace(rhs, Box::new(Expr::int(0))));
    *e = Expr::OperateBy { family, code: Box::new(Expr::int(code)), lhs, rhs };
}

/// A narrowing that wraps, `WrapAs(x, w, u)`, and one that saturates,
/// `SaturateAs(x, w, u)`, are one narrowing with a number saying which:
/// `NarrowAs(x, w, u, 0)` and `NarrowAs(x, w, u, 1)`.
fn narrowing_by_number(e: &mut Expr) {
    let Expr::Call { func, args } = e else { return };
    let saturate = match func.as_str() {
        "WrapAs" => 0,
        "SaturateAs" => 1,
        _ => return,
    };
    if args.len() == 3 {
        *func = NARROW.to_string();
        args.push(Expr::int(saturate));
    }
}

/// The built-in that narrows by a number (see [`narrowing_by_number`]).
pub const NARROW: &str = "NarrowAs";

/// What a number of a broad canonical form chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// An operator of a family ([`Expr::OperateBy`]'s code).
    Operator(OperatorFamily),
    /// Whether a narrowing saturates ([`NARROW`]'s last argument).
    Narrowing,
}

/// The numbers (or holes) of `sema` that choose an operation, by what they
/// choose, in the order of a walk over its expressions.
pub fn choices(sema: &Semantics) -> HashMap<Choice, Vec<Expr>> {
    let mut out: HashMap<Choice, Vec<Expr>> = HashMap::new();
    let mut t = sema.clone();
    walk_semantics_mut(
        &mut t,
        &mut |e: &mut Expr| match e {
            Expr::OperateBy { family, code, .. } => {
                out.entry(Choice::Operator(*family)).or_default().push((**code).clone())
            }
            Expr::Call { func, args } if func == NARROW && args.len() == 4 => {
                out.entry(Choice::Narrowing).or_default().push(args[3].clone())
            }
            _ => {}
        },
        &mut |_| {},
    );
    out
}

/// `a && b` and `a || b` of truth values (0 or 1) are `a AND b` and
/// `a OR b`, and `a && !b` is `a AND NOT b` (truth table 4): bitwise
/// operators, so a predicate's logic is one operation with a truth table.
fn truth_values_as_bits(e: &mut Expr) {
    let Expr::Binary { op: op @ (BinOp::LogicalAnd | BinOp::LogicalOr), lhs, rhs } = e else { return };
    if !is_truth_value(lhs) || !is_truth_value(rhs) {
        return;
    }
    if *op == BinOp::LogicalAnd {
        if let Expr::CompareBy { predicate, lhs: negated, rhs: zero } = rhs.as_mut() {
            let is = |x: &Expr, v: i64| matches!(x, Expr::Int(i) if *i == v.into());
            if is(predicate, code_of_comparison(BinOp::Eq).map_or(-1, i64::from))
                && is(zero, 0)
                && is_truth_value(negated)
            {
                let negated = std::mem::replace(negated, Box::new(Expr::int(0)));
                let lhs = std::mem::replace(lhs, Box::new(Expr::int(0)));
                *e = Expr::OperateBy {
                    family: OperatorFamily::Bitwise,
                    code: Box::new(Expr::int(4)),
                    lhs,
                    rhs: negated,
                };
                return;
            }
        }
    }
    *op = if *op == BinOp::LogicalAnd { BinOp::And } else { BinOp::Or };
}

/// Whether `e` is 0 or 1: a comparison, a logical operation, or a value
/// masked to its lowest bit.
fn is_truth_value(e: &Expr) -> bool {
    match e {
        Expr::CompareBy { .. } | Expr::Unary { op: UnOp::LogicalNot, .. } => true,
        Expr::Binary { op, lhs, rhs } => match op {
            BinOp::LogicalAnd
            | BinOp::LogicalOr
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => true,
            BinOp::And => [lhs, rhs].iter().any(|x| matches!(x.as_ref(), Expr::Int(i) if *i == 1.into())),
            _ => false,
        },
        _ => false,
    }
}

/// The names that hold values of the instruction: its arguments, its
/// result, helper parameters, and locals assigned from any of them.
fn value_names(s: &Semantics) -> HashSet<String> {
    let mut names: HashSet<String> = s.args.iter().map(|a| a.name.clone()).collect();
    names.insert(s.result.name.clone());
    for f in &s.functions {
        names.extend(f.params.iter().cloned());
    }
    loop {
        let before = names.len();
        for f in &s.functions {
            add_assigned_values(&f.body, &mut names);
        }
        add_assigned_values(&s.body, &mut names);
        if names.len() == before {
            return names;
        }
    }
}

fn add_assigned_values(body: &[Stmt], names: &mut HashSet<String>) {
    for s in body {
        if let StmtKind::Assign { place, value } = &s.kind {
            if reads(value, names) {
                names.insert(place.var.clone());
            }
        }
        for block in child_blocks(s) {
            add_assigned_values(block, names);
        }
    }
}

/// Whether `e` reads one of `names`.
fn reads(e: &Expr, names: &HashSet<String>) -> bool {
    match e {
        Expr::Int(_) => false,
        Expr::Var(v) => names.contains(v),
        Expr::Slice { base, hi, lo } => [base, hi, lo].iter().any(|x| reads(x, names)),
        Expr::Bit { base, index } => reads(base, names) || reads(index, names),
        Expr::Unary { arg, .. } => reads(arg, names),
        Expr::Binary { lhs, rhs, .. } => reads(lhs, names) || reads(rhs, names),
        Expr::CompareBy { predicate: code, lhs, rhs } | Expr::OperateBy { code, lhs, rhs, .. } => {
            [code, lhs, rhs].iter().any(|x| reads(x, names))
        }
        Expr::Select { cond, then, otherwise } => [cond, then, otherwise].iter().any(|x| reads(x, names)),
        Expr::Call { args, .. } => args.iter().any(|a| reads(a, names)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Concrete, Machine};
    use crate::sema::ir::{Arg, Place};
    use num_bigint::BigUint;

    fn byte(name: &str) -> Arg {
        Arg::scalar(name, 8)
    }

    /// `r := value` over bytes `a` and `b`, the result 8 bits wide.
    fn sema(value: Expr) -> Semantics {
        Semantics {
            name: "t".into(),
            args: vec![byte("a"), byte("b")],
            result: byte("r"),
            functions: vec![],
            body: vec![Stmt {
                span: Default::default(),
                kind: StmtKind::Assign { place: Place { var: "r".into(), range: None }, value },
            }],
        }
    }

    fn chosen(value: Expr) -> Expr {
        let mut s = sema(value);
        choose_operators_by_number(&mut s);
        match s.body.remove(0).kind {
            StmtKind::Assign { value, .. } => value,
            _ => unreachable!(),
        }
    }

    fn run(s: &Semantics, a: u8, b: u8) -> u8 {
        let r = Machine::new(&mut Concrete, s).run(&[BigUint::from(a), BigUint::from(b)]).unwrap();
        u8::try_from(r).unwrap()
    }

    #[test]
    fn a_sum_and_a_difference_differ_only_in_their_code() {
        let (a, b) = (Expr::var("a"), Expr::var("b"));
        let sum = chosen(Expr::binary(BinOp::Add, a.clone(), b.clone()));
        let difference = chosen(Expr::binary(BinOp::Sub, a.clone(), b.clone()));
        let code = |e: &Expr| match e {
            Expr::OperateBy { family: OperatorFamily::Additive, code, .. } => (**code).clone(),
            other => panic!("not an additive operator: {other:?}"),
        };
        assert_eq!(code(&sum), Expr::int(1));
        assert_eq!(code(&difference), Expr::int(-1));
        let key = |e: Expr| crate::classify::template::parameterize(&sema(e)).key;
        assert_eq!(key(sum), key(difference));
        // A term with a literal is an operation on a value; arithmetic on no
        // value, and a bit position, keep their operators.
        let rounding = Expr::binary(BinOp::Add, a.clone(), Expr::int(1));
        assert!(matches!(chosen(rounding), Expr::OperateBy { .. }));
        let counters = Expr::binary(BinOp::Add, Expr::var("i"), Expr::var("j"));
        assert_eq!(chosen(counters.clone()), counters);
        let position = Expr::binary(BinOp::Add, Expr::int(7), Expr::var("a"));
        let bits =
            Expr::Slice { base: Box::new(b.clone()), hi: Box::new(position.clone()), lo: Box::new(Expr::var("a")) };
        assert_eq!(chosen(bits.clone()), bits);
    }

    #[test]
    fn logic_on_truth_values_is_a_truth_table_that_computes_the_same() {
        let bit = |n: &str| Expr::binary(BinOp::And, Expr::int(1), Expr::var(n));
        let not = |e: Expr| Expr::CompareBy {
            predicate: Box::new(Expr::int(0)),
            lhs: Box::new(e),
            rhs: Box::new(Expr::int(0)),
        };
        let forms = [
            Expr::binary(BinOp::LogicalAnd, bit("a"), bit("b")),
            Expr::binary(BinOp::LogicalOr, bit("a"), bit("b")),
            Expr::binary(BinOp::LogicalAnd, bit("a"), not(bit("b"))),
            Expr::binary(BinOp::Xor, bit("a"), bit("b")),
        ];
        let mut keys = Vec::new();
        for (form, table) in forms.into_iter().zip([8, 14, 4, 6]) {
            let original = sema(form.clone());
            let mut rewritten = original.clone();
            choose_operators_by_number(&mut rewritten);
            match &rewritten.body[0].kind {
                StmtKind::Assign { value: Expr::OperateBy { family: OperatorFamily::Bitwise, code, .. }, .. } => {
                    assert_eq!(**code, Expr::int(table))
                }
                other => panic!("not a truth table: {other:?}"),
            }
            for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1), (3, 254)] {
                assert_eq!(run(&original, a, b), run(&rewritten, a, b), "{form:?} on {a}, {b}");
            }
            keys.push(crate::classify::template::parameterize(&rewritten).key);
        }
        assert!(keys.iter().all(|k| *k == keys[0]));
    }

    #[test]
    fn every_truth_table_computes_its_bits() {
        for table in 0..16i64 {
            let s = sema(Expr::OperateBy {
                family: OperatorFamily::Bitwise,
                code: Box::new(Expr::int(table)),
                lhs: Box::new(Expr::var("a")),
                rhs: Box::new(Expr::var("b")),
            });
            let (a, b) = (0b1100_1010u8, 0b1010_0110u8);
            let expected = (0..8).fold(0u8, |r, i| {
                let (l, rb) = (a >> i & 1, b >> i & 1);
                r | ((table >> (2 * l + rb) & 1) as u8) << i
            });
            assert_eq!(run(&s, a, b), expected, "table {table}");
        }
    }
}
