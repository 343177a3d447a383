//! Names for a class's body parameters and immediates after the role their
//! first use plays in the template: a loop bound, a bit position, a width, a
//! shift amount, an operator code, a comparison predicate, a selector of
//! branches (immediates only), or a constant operand.

use crate::sema::ir::{BinOp, Expr, Function, Semantics, Stmt, StmtKind};
use crate::sema::visit::any_expr;
use std::collections::HashSet;

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
    /// What a `CASE`, `IF` or selection branches on.
    Selector,
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
            Role::Selector => "selector",
            Role::Constant => "constant",
        }
    }
}

/// The role of the first occurrence of variable `var` in `t` (statements in
/// order, functions after the body); `None` if it does not occur. A number a
/// condition reads is a constant: a body parameter there is a bound the
/// members differ in, not a choice.
pub fn role_of(t: &Semantics, var: &str) -> Option<Role> {
    let mut all = Vec::new();
    for body in std::iter::once(&t.body).chain(t.functions.iter().map(|f| &f.body)) {
        all.extend(Uses::scan(body, var, Role::Constant, &[]).roles);
    }
    all.first().copied()
}

/// What immediate `var` of `t` does: the strongest role of any of its uses
/// (a shift amount over a predicate, an operator code, an index, a
/// selector, a width, a count, a constant operand), following its value into
/// the locals assigned from it and the template's helpers it is passed to.
/// One a condition reads is a [`Role::Selector`].
pub fn immediate_role(t: &Semantics, var: &str) -> Option<Role> {
    let mut work: Vec<(&[Stmt], String)> = std::iter::once(&t.body)
        .chain(t.functions.iter().map(|f| &f.body))
        .map(|b| (b.as_slice(), var.to_string()))
        .collect();
    let mut seen: HashSet<(*const Stmt, String)> = HashSet::new();
    let mut roles = Vec::new();
    while let Some((body, v)) = work.pop() {
        if !seen.insert((body.as_ptr(), v.clone())) {
            continue;
        }
        let uses = Uses::scan(body, &v, Role::Selector, &t.functions);
        roles.extend(uses.roles);
        work.extend(uses.copies.into_iter().map(|local| (body, local)));
        for (helper, i) in uses.passed {
            if let Some(p) = helper.params.get(i) {
                work.push((helper.body.as_slice(), p.clone()));
            }
        }
    }
    roles.into_iter().max_by_key(|r| strength(*r))
}

/// How much a use says about what an immediate is.
fn strength(r: Role) -> u8 {
    match r {
        Role::Shift => 7,
        Role::Predicate => 6,
        Role::Operator => 5,
        Role::Bit => 4,
        Role::Selector => 3,
        Role::Width => 2,
        Role::LoopBound => 1,
        Role::Constant => 0,
    }
}

/// The uses of `var` in one body: each occurrence's role in order, the
/// locals assigned from an expression reading it, and the helpers (of
/// `helpers`) it is passed to, by parameter index.
struct Uses<'a, 'h> {
    var: &'a str,
    /// The role of a number a condition reads directly.
    condition: Role,
    helpers: &'h [Function],
    roles: Vec<Role>,
    copies: Vec<String>,
    passed: Vec<(&'h Function, usize)>,
}

impl<'a, 'h> Uses<'a, 'h> {
    fn scan(body: &[Stmt], var: &'a str, condition: Role, helpers: &'h [Function]) -> Uses<'a, 'h> {
        let mut u = Uses { var, condition, helpers, roles: Vec::new(), copies: Vec::new(), passed: Vec::new() };
        u.stmts(body);
        u
    }

    fn reads(&self, e: &Expr) -> bool {
        any_expr(e, |x| matches!(x, Expr::Var(v) if v == self.var))
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { place, value } => {
                    if let Some((hi, lo)) = &place.range {
                        self.expr(hi, Role::Bit);
                        self.expr(lo, Role::Bit);
                    } else if place.var != self.var && self.reads(value) {
                        self.copies.push(place.var.clone());
                    }
                    self.expr(value, Role::Constant);
                }
                StmtKind::For { from, to, body, .. } => {
                    self.expr(from, Role::LoopBound);
                    self.expr(to, Role::LoopBound);
                    self.stmts(body);
                }
                StmtKind::While { cond, body } => {
                    self.expr(cond, Role::Constant);
                    self.stmts(body);
                }
                StmtKind::If { cond, then, otherwise } => {
                    self.expr(cond, self.condition);
                    self.stmts(then);
                    self.stmts(otherwise);
                }
                StmtKind::Case { scrutinee, arms } => {
                    self.expr(scrutinee, self.condition);
                    for arm in arms {
                        self.stmts(&arm.body);
                    }
                }
                StmtKind::Return { value } => self.expr(value, Role::Constant),
                StmtKind::Call { args, .. } => args.iter().for_each(|a| self.expr(a, Role::Constant)),
            }
        }
    }

    /// Visits `e` in evaluation order, `role` being what a number directly in it is.
    fn expr(&mut self, e: &Expr, role: Role) {
        match e {
            Expr::Var(v) if v == self.var => self.roles.push(role),
            Expr::Int(_) | Expr::Var(_) => {}
            Expr::Slice { base, hi, lo } => {
                self.expr(base, role);
                self.expr(hi, Role::Bit);
                self.expr(lo, Role::Bit);
            }
            Expr::Bit { base, index } => {
                self.expr(base, role);
                self.expr(index, Role::Bit);
            }
            Expr::Unary { arg, .. } => self.expr(arg, role),
            Expr::Binary { op: BinOp::Shl | BinOp::Shr, lhs, rhs } if role == Role::Constant => {
                self.expr(lhs, role);
                self.expr(rhs, Role::Shift);
            }
            Expr::Binary { lhs, rhs, .. } => {
                self.expr(lhs, role);
                self.expr(rhs, role);
            }
            Expr::CompareBy { predicate, lhs, rhs } => {
                self.expr(predicate, Role::Predicate);
                self.expr(lhs, role);
                self.expr(rhs, role);
            }
            Expr::OperateBy { code, lhs, rhs, .. } => {
                self.expr(code, Role::Operator);
                self.expr(lhs, role);
                self.expr(rhs, role);
            }
            Expr::Select { cond, then, otherwise } => {
                let cond_role = if role == Role::Constant { self.condition } else { role };
                self.expr(cond, cond_role);
                self.expr(then, role);
                self.expr(otherwise, role);
            }
            Expr::Call { func, args } => match self.helpers.iter().find(|h| h.name == *func) {
                // A template helper's arguments are its parameters' values.
                Some(helper) => {
                    for (i, a) in args.iter().enumerate() {
                        if self.reads(a) {
                            self.passed.push((helper, i));
                        }
                    }
                }
                // A built-in helper's first argument is the value; the others
                // are widths and flags, but for `ShiftInt`'s shift amount.
                None => {
                    for (i, a) in args.iter().enumerate() {
                        let arg_role = match i {
                            0 => role,
                            1 if func == "ShiftInt" => Role::Shift,
                            _ => Role::Width,
                        };
                        self.expr(a, arg_role);
                    }
                }
            },
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

    fn assign(var: &str, value: Expr) -> Stmt {
        stmt(StmtKind::Assign { place: Place { var: var.into(), range: None }, value })
    }

    fn template(body: Vec<Stmt>, functions: Vec<Function>) -> Semantics {
        Semantics { name: "t".into(), args: vec![], result: Arg::scalar("dst", 32), functions, body }
    }

    #[test]
    fn an_immediate_is_what_its_strongest_use_makes_it() {
        // IF imm > 15 THEN dst := 0 ELSE dst := a << imm: a shift amount, not a selector.
        let cond = Expr::binary(BinOp::Gt, Expr::var("imm"), Expr::int(15));
        let shifted = Expr::binary(BinOp::Shl, Expr::var("a"), Expr::var("imm"));
        let t = template(
            vec![stmt(StmtKind::If {
                cond,
                then: vec![assign("dst", Expr::int(0))],
                otherwise: vec![assign("dst", shifted)],
            })],
            vec![],
        );
        assert_eq!(role_of(&t, "imm"), Some(Role::Constant), "a body parameter keeps its first use");
        assert_eq!(immediate_role(&t, "imm"), Some(Role::Shift));
        // CASE imm OF …: a selector.
        let case = template(vec![stmt(StmtKind::Case { scrutinee: Expr::var("imm"), arms: vec![] })], vec![]);
        assert_eq!(immediate_role(&case, "imm"), Some(Role::Selector));
        assert_eq!(immediate_role(&case, "other"), None);
    }

    #[test]
    fn an_immediate_is_followed_into_locals_and_helpers() {
        // l := imm[7:0]; dst := a << (l * 8)
        let low =
            Expr::Slice { base: Box::new(Expr::var("imm")), hi: Box::new(Expr::int(7)), lo: Box::new(Expr::int(0)) };
        let bytes = Expr::binary(BinOp::Mul, Expr::var("l"), Expr::int(8));
        let local =
            template(vec![assign("l", low), assign("dst", Expr::binary(BinOp::Shl, Expr::var("a"), bytes))], vec![]);
        assert_eq!(immediate_role(&local, "imm"), Some(Role::Shift));
        // DEFINE rot(p0, p1) RETURN p0 << p1; dst := rot(a, imm)
        let rot = Function {
            name: "rot".into(),
            params: vec!["p0".into(), "p1".into()],
            body: vec![stmt(StmtKind::Return { value: Expr::binary(BinOp::Shl, Expr::var("p0"), Expr::var("p1")) })],
            span: Span::default(),
        };
        let call = Expr::Call { func: "rot".into(), args: vec![Expr::var("a"), Expr::var("imm")] };
        let helper = template(vec![assign("dst", call)], vec![rot]);
        assert_eq!(role_of(&helper, "imm"), Some(Role::Width), "a body parameter is not followed");
        assert_eq!(immediate_role(&helper, "imm"), Some(Role::Shift));
    }
}
