//! Operators chosen by a number.
//!
//! `a + b` and `a - b` are one operation with the coefficient of `b` 1 or
//! -1; `a AND b`, `a OR b` and `a XOR b` are one bitwise operation with a
//! truth table, as x86's ternary logic carries its table in an immediate;
//! `a << n` and `a >> n` are one shift with a direction. The broad
//! canonical form writes such operators on values as [`Expr::OperateBy`],
//! so instructions that differ only in the operator they apply to their
//! operands read alike up to numbers, as comparisons already do with their
//! predicate codes.
//!
//! Only operators whose operands are both computed (no literal) and of
//! which one reads a value of the instruction (an argument, the result or
//! a local holding one) are written so: index arithmetic over loop counters
//! and terms with literals (`x + 1`, `x >> 8`, `x AND 255`) keep their
//! operator, so index normalization and neutral terms see them as before.

use crate::sema::ir::{
    code_of_comparison, operator_code, BinOp, Expr, OperatorFamily, Semantics, Stmt, StmtKind, UnOp,
};
use crate::sema::visit::{child_blocks, walk_semantics_mut};
use std::collections::HashSet;

/// Writes every operator of a family between two values of `s` as an
/// [`Expr::OperateBy`] with its code.
pub fn choose_operators_by_number(s: &mut Semantics) {
    let values = value_names(s);
    walk_semantics_mut(
        s,
        &mut |e: &mut Expr| {
            truth_values_as_bits(e);
            let Expr::Binary { op, lhs, rhs } = e else { return };
            let Some((family, code)) = operator_code(*op) else { return };
            let literal = |x: &Expr| matches!(x, Expr::Int(_));
            if literal(lhs) || literal(rhs) || !(reads(lhs, &values) || reads(rhs, &values)) {
                return;
            }
            let (lhs, rhs) =
                (std::mem::replace(lhs, Box::new(Expr::int(0))), std::mem::replace(rhs, Box::new(Expr::int(0))));
            *e = Expr::OperateBy { family, code: Box::new(Expr::int(code)), lhs, rhs };
        },
        &mut |_| {},
    );
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
    use crate::sema::ir::{Arg, ArgKind, ElemType, Place};
    use num_bigint::BigUint;

    fn byte(name: &str) -> Arg {
        Arg {
            name: name.into(),
            kind: ArgKind::Scalar,
            width: 8,
            elem: ElemType { width: 8, signed: false },
            imm_bits: None,
            imm_range: None,
        }
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
        // A term with a literal, and arithmetic on no value, keep their operator.
        let rounding = Expr::binary(BinOp::Add, a.clone(), Expr::int(1));
        assert_eq!(chosen(rounding.clone()), rounding);
        let counters = Expr::binary(BinOp::Add, Expr::var("i"), Expr::var("j"));
        assert_eq!(chosen(counters.clone()), counters);
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
