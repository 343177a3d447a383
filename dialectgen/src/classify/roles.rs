//! Names for a class's body parameters after the role their first use
//! plays in the template: a loop bound, a bit position, a width, a shift
//! amount, an operator code, a comparison predicate, or a constant operand.

use crate::sema::ir::{BinOp, Expr, Semantics, Stmt, StmtKind};

/// The role of a number by where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A loop's first or last counter value (`FOR j := 0 to 15`).
    LoopBound,
    /// A bit position or bit-range bound (`a[i+15:i]`).
    Bit,
    /// A width a helper narrows, saturates or extends to.
    Width,
    /// How far a value is shifted.
    Shift,
    /// The code choosing an operator of a family.
    Operator,
    /// A comparison's predicate.
    Predicate,
    /// An operand of the computation.
    Constant,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::LoopBound => "loop_bound",
            Role::Bit => "bit",
            Role::Width => "width",
            Role::Shift => "shift",
            Role::Operator => "operator",
            Role::Predicate => "predicate",
            Role::Constant => "constant",
        }
    }
}

/// The role of the first occurrence of variable `var` in `t` (statements in
/// order, functions after the body); `None` if it does not occur.
pub fn role_of(t: &Semantics, var: &str) -> Option<Role> {
    let mut found = None;
    stmts(&t.body, var, &mut found);
    for f in &t.functions {
        stmts(&f.body, var, &mut found);
    }
    found
}

fn stmts(body: &[Stmt], var: &str, found: &mut Option<Role>) {
    for s in body {
        if found.is_some() {
            return;
        }
        match &s.kind {
            StmtKind::Assign { place, value } => {
                if let Some((hi, lo)) = &place.range {
                    expr(hi, Role::Bit, var, found);
                    expr(lo, Role::Bit, var, found);
                }
                expr(value, Role::Constant, var, found);
            }
            StmtKind::For { from, to, body, .. } => {
                expr(from, Role::LoopBound, var, found);
                expr(to, Role::LoopBound, var, found);
                stmts(body, var, found);
            }
            StmtKind::While { cond, body } => {
                expr(cond, Role::Constant, var, found);
                stmts(body, var, found);
            }
            StmtKind::If { cond, then, otherwise } => {
                expr(cond, Role::Constant, var, found);
                stmts(then, var, found);
                stmts(otherwise, var, found);
            }
            StmtKind::Case { scrutinee, arms } => {
                expr(scrutinee, Role::Constant, var, found);
                for arm in arms {
                    stmts(&arm.body, var, found);
                }
            }
            StmtKind::Return { value } => expr(value, Role::Constant, var, found),
            StmtKind::Call { args, .. } => args.iter().for_each(|a| expr(a, Role::Constant, var, found)),
        }
    }
}

/// Visits `e` in evaluation order, `role` being what a number directly in it is.
fn expr(e: &Expr, role: Role, var: &str, found: &mut Option<Role>) {
    if found.is_some() {
        return;
    }
    match e {
        Expr::Var(v) if v == var => *found = Some(role),
        Expr::Int(_) | Expr::Var(_) => {}
        Expr::Slice { base, hi, lo } => {
            expr(base, role, var, found);
            expr(hi, Role::Bit, var, found);
            expr(lo, Role::Bit, var, found);
        }
        Expr::Bit { base, index } => {
            expr(base, role, var, found);
            expr(index, Role::Bit, var, found);
        }
        Expr::Unary { arg, .. } => expr(arg, role, var, found),
        Expr::Binary { op: BinOp::Shl | BinOp::Shr, lhs, rhs } if role == Role::Constant => {
            expr(lhs, role, var, found);
            expr(rhs, Role::Shift, var, found);
        }
        Expr::Binary { lhs, rhs, .. } => {
            expr(lhs, role, var, found);
            expr(rhs, role, var, found);
        }
        Expr::CompareBy { predicate, lhs, rhs } => {
            expr(predicate, Role::Predicate, var, found);
            expr(lhs, role, var, found);
            expr(rhs, role, var, found);
        }
        Expr::OperateBy { code, lhs, rhs, .. } => {
            expr(code, Role::Operator, var, found);
            expr(lhs, role, var, found);
            expr(rhs, role, var, found);
        }
        Expr::Select { cond, then, otherwise } => {
            expr(cond, role, var, found);
            expr(then, role, var, found);
            expr(otherwise, role, var, found);
        }
        // A helper's first argument is the value; the others are widths and flags.
        Expr::Call { args, .. } => {
            for (i, a) in args.iter().enumerate() {
                expr(a, if i == 0 { role } else { Role::Width }, var, found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::ir::{Arg, Place, Span};

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt { span: Span::default(), kind }
    }

    #[test]
    fn numbers_are_named_by_where_they_stand() {
        let slice = |hi: &str, lo: &str| Expr::Slice {
            base: Box::new(Expr::var("a")),
            hi: Box::new(Expr::var(hi)),
            lo: Box::new(Expr::var(lo)),
        };
        let shifted = Expr::binary(BinOp::Shr, slice("$1", "$2"), Expr::var("$3"));
        let narrowed = Expr::Call { func: "NarrowAs".into(), args: vec![shifted, Expr::var("$4")] };
        let body = vec![stmt(StmtKind::For {
            var: "j".into(),
            from: Expr::int(0),
            to: Expr::var("$0"),
            descending: false,
            body: vec![stmt(StmtKind::Assign { place: Place { var: "dst".into(), range: None }, value: narrowed })],
        })];
        let t = Semantics {
            name: "t".into(),
            args: vec![Arg::scalar("a", 32)],
            result: Arg::scalar("dst", 32),
            functions: vec![],
            body,
        };
        assert_eq!(role_of(&t, "$0"), Some(Role::LoopBound));
        assert_eq!(role_of(&t, "$1"), Some(Role::Bit));
        assert_eq!(role_of(&t, "$3"), Some(Role::Shift));
        assert_eq!(role_of(&t, "$4"), Some(Role::Width));
        assert_eq!(role_of(&t, "$9"), None);
    }
}
