//! Operands of commutative operations in one order.
//!
//! `Rt.b * Vu.h` and `Vu.b * Rt.b` compute alike up to which operand is
//! which; the classifier names arguments by first use, so the two would
//! read as different programs. Each sum, product and bitwise combination
//! puts first the operand whose shape (the expression with names and
//! numbers left out) sorts first; operands of one shape keep their order.

use crate::sema::ir::{BinOp, Expr, Stmt};
use crate::sema::visit::walk_stmts_mut;

/// Orders the operands of every commutative operation in `body`.
pub fn order_commutative_operands(body: &mut [Stmt]) {
    walk_stmts_mut(
        body,
        &mut |e: &mut Expr| {
            if let Expr::Binary { op: BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor, lhs, rhs } = e {
                if shape(rhs) < shape(lhs) {
                    std::mem::swap(lhs, rhs);
                }
            }
        },
        &mut |_| {},
    );
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
            out.push_str(&format!("{op:?}("));
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
}
