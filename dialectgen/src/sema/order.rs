//! Operands of commutative operations in one order.
//!
//! `Rt.b * Vu.h` and `Vu.b * Rt.b` compute alike up to which operand is
//! which; the classifier names arguments by first use, so the two would
//! read as different programs. Each sum, product and bitwise combination
//! puts first the operand whose shape (the expression with names and
//! numbers left out) sorts first; operands of one shape keep their order.
//! So does each commutative operator chosen by a number (a sum, a
//! symmetric truth table), whose code the shape leaves out too.

use crate::sema::ir::{operator_code, BinOp, Expr, OperatorFamily, Stmt};
use crate::sema::visit::walk_stmts_mut;

/// Orders the operands of every commutative operation in `body`.
pub fn order_commutative_operands(body: &mut [Stmt]) {
    walk_stmts_mut(
        body,
        &mut |e: &mut Expr| {
            let operands = match e {
                Expr::Binary { op: BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor, lhs, rhs } => {
                    Some((lhs, rhs))
                }
                Expr::OperateBy { family, code, lhs, rhs } if commutative(*family, code) => Some((lhs, rhs)),
                _ => None,
            };
            if let Some((lhs, rhs)) = operands {
                if shape(rhs) < shape(lhs) {
                    std::mem::swap(lhs, rhs);
                }
            }
        },
        &mut |_| {},
    );
}

/// Whether the operator `code` chooses in `family` is commutative: a sum,
/// or a truth table that treats its operands alike.
fn commutative(family: OperatorFamily, code: &Expr) -> bool {
    let Expr::Int(code) = code else { return false };
    let Ok(code) = i64::try_from(code) else { return false };
    match family {
        OperatorFamily::Additive => code == 1,
        OperatorFamily::Bitwise => (code >> 1 & 1) == (code >> 2 & 1),
        OperatorFamily::Shift => false,
    }
}

/// `e` with every name written `$` and every number `#`.
fn shape(e: &Expr) -> String {
    let mut out = String::new();
    write_shape(e, &mut out);
    out
}

fn write_shape(e: &Expr, out: &mut String) {
    match e {
        Expr::Int(_) => out.push('#'),
        Expr::Var(_) => out.push('$'),
        Expr::Slice { base, hi, lo } => {
            out.push_str("slice(");
            for x in [base, hi, lo] {
                write_shape(x, out);
                out.push(',');
            }
            out.push(')');
        }
        Expr::Bit { base, index } => {
            out.push_str("bit(");
            write_shape(base, out);
            out.push(',');
            write_shape(index, out);
            out.push(')');
        }
        Expr::Unary { op, arg } => {
            out.push_str(&format!("{op:?}("));
            write_shape(arg, out);
            out.push(')');
        }
        Expr::Binary { op, lhs, rhs } => {
            // An operator of a family has the shape of the family's
            // operators chosen by number (its code is a number).
            match operator_code(*op) {
                Some((family, _)) => out.push_str(&format!("{family:?}(#,")),
                None => out.push_str(&format!("{op:?}(")),
            }
            write_shape(lhs, out);
            out.push(',');
            write_shape(rhs, out);
            out.push(')');
        }
        Expr::OperateBy { family, code, lhs, rhs } => {
            out.push_str(&format!("{family:?}("));
            write_shape(code, out);
            out.push(',');
            write_shape(lhs, out);
            out.push(',');
            write_shape(rhs, out);
            out.push(')');
        }
        Expr::CompareBy { predicate, lhs, rhs } => {
            out.push_str("cmp(");
            for x in [predicate, lhs, rhs] {
                write_shape(x, out);
                out.push(',');
            }
            out.push(')');
        }
        Expr::Select { cond, then, otherwise } => {
            out.push_str("select(");
            for x in [cond, then, otherwise] {
                write_shape(x, out);
                out.push(',');
            }
            out.push(')');
        }
        Expr::Call { func, args } => {
            out.push_str(func);
            out.push('(');
            for a in args {
                write_shape(a, out);
                out.push(',');
            }
            out.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::ir::{Place, StmtKind};

    fn ordered(value: Expr) -> Expr {
        let mut body = vec![Stmt {
            span: Default::default(),
            kind: StmtKind::Assign { place: Place { var: "x".into(), range: None }, value },
        }];
        order_commutative_operands(&mut body);
        match body.remove(0).kind {
            StmtKind::Assign { value, .. } => value,
            _ => unreachable!(),
        }
    }

    #[test]
    fn both_orders_of_a_product_become_one() {
        let lane = Expr::Call { func: "AsInteger".into(), args: vec![Expr::var("v"), Expr::int(0)] };
        let scalar = Expr::binary(BinOp::Shr, Expr::var("r"), Expr::int(8));
        let a = ordered(Expr::binary(BinOp::Mul, lane.clone(), scalar.clone()));
        let b = ordered(Expr::binary(BinOp::Mul, scalar.clone(), lane.clone()));
        assert_eq!(a, b);
        // A difference keeps its order.
        let d = Expr::binary(BinOp::Sub, scalar.clone(), lane.clone());
        assert_eq!(ordered(d.clone()), d);
    }

    #[test]
    fn a_sum_chosen_by_number_is_ordered_and_a_difference_is_not() {
        let lane = Expr::Call { func: "AsInteger".into(), args: vec![Expr::var("v"), Expr::int(0)] };
        let scalar = Expr::binary(BinOp::Shr, Expr::var("r"), Expr::int(8));
        let by = |code: i64, lhs: &Expr, rhs: &Expr| Expr::OperateBy {
            family: OperatorFamily::Additive,
            code: Box::new(Expr::int(code)),
            lhs: Box::new(lhs.clone()),
            rhs: Box::new(rhs.clone()),
        };
        assert_eq!(ordered(by(1, &lane, &scalar)), ordered(by(1, &scalar, &lane)));
        assert_eq!(ordered(by(-1, &scalar, &lane)), by(-1, &scalar, &lane));
        // A sum and a difference of the same operands have one shape.
        assert_eq!(shape(&by(1, &lane, &scalar)), shape(&Expr::binary(BinOp::Sub, lane.clone(), scalar.clone())));
    }
}
