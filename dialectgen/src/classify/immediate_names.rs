//! Names for a class's immediates after their role: the canonical names
//! classification compares templates by (`a0`, `a1`, …) say where an
//! argument stands, not what it does, and they become attribute names of the
//! class's op. An immediate is renamed after what its strongest use does,
//! its value followed into locals and helpers ([`super::roles::immediate_role`]): `shift`, `selector`, `index`,
//! `predicate`, `operator`, `width`, `count`, or `imm` for an operand of the
//! arithmetic; so are the parameters named after it (`a0_imm_bits` becomes
//! `shift_imm_bits`). A name the template already uses gets `_2`, `_3`, ….

use super::class::SimilarityClass;
use super::mask::rename_var;
use super::roles::{immediate_role, Role};
use crate::sema::ir::{ArgKind, Expr, Semantics};
use crate::sema::visit::walk_semantics_mut;
use std::collections::BTreeSet;

/// What an immediate of role `role` is called.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Shift => "shift",
        Role::Selector => "selector",
        Role::Bit => "index",
        Role::Predicate => "predicate",
        Role::Operator => "operator",
        Role::Width => "width",
        Role::LoopBound => "count",
        Role::Constant => "imm",
    }
}

/// Every name `t` binds or reads: its arguments, result, helpers' parameters and variables.
fn names_in(t: &mut Semantics) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = t.args.iter().map(|a| a.name.clone()).collect();
    names.insert(t.result.name.clone());
    let found = std::cell::RefCell::new(BTreeSet::new());
    walk_semantics_mut(
        t,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                found.borrow_mut().insert(v.clone());
            }
        },
        &mut |n: &mut String| {
            found.borrow_mut().insert(n.clone());
        },
    );
    names.extend(found.into_inner());
    names
}

/// `base`, or `base_2`, `base_3`, … the first not in `taken`.
fn free_name(base: &str, taken: &BTreeSet<String>) -> String {
    (1..)
        .map(|k| if k == 1 { base.to_string() } else { format!("{base}_{k}") })
        .find(|n| !taken.contains(n))
        .expect("some suffix is free")
}

/// Renames `c`'s immediates, and the parameters named after them, by role.
pub fn name_immediates(c: &mut SimilarityClass) {
    let immediates: Vec<usize> =
        (0..c.template.args.len()).filter(|&k| c.template.args[k].kind == ArgKind::Immediate).collect();
    for k in immediates {
        let old = c.template.args[k].name.clone();
        let role = immediate_role(&c.template, &old).unwrap_or(Role::Constant);
        let mut taken = names_in(&mut c.template);
        taken.extend(c.params.iter().map(|p| p.name.clone()));
        let new = free_name(role_name(role), &taken);
        rename_var(&mut c.template, &old, &new);
        c.template.args[k].name = new.clone();
        let prefix = format!("{old}_");
        for p in &mut c.params {
            if let Some(rest) = p.name.strip_prefix(&prefix) {
                let renamed = format!("{new}_{rest}");
                rename_var(&mut c.template, &p.name, &renamed);
                p.name = renamed;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::class::ClassParam;
    use crate::sema::ir::{Arg, BinOp, Place, Span, Stmt, StmtKind};

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt { span: Span::default(), kind }
    }

    fn class(value: Expr, params: &[&str]) -> SimilarityClass {
        let mut imm = Arg::scalar("a1", 8);
        imm.kind = ArgKind::Immediate;
        SimilarityClass {
            name: "c".into(),
            template: Semantics {
                name: "t".into(),
                args: vec![Arg::scalar("a0", 32), imm],
                result: Arg::scalar("dst", 32),
                functions: vec![],
                body: vec![stmt(StmtKind::Assign { place: Place { var: "dst".into(), range: None }, value })],
            },
            params: params
                .iter()
                .map(|n| ClassParam { name: n.to_string(), holes: vec![], offset_holes: vec![] })
                .collect(),
            maskings: vec![],
            members: vec![],
        }
    }

    #[test]
    fn an_immediate_is_named_by_what_it_does_and_its_parameters_follow() {
        let shifted = Expr::binary(BinOp::Shr, Expr::var("a0"), Expr::var("a1"));
        let narrowed = Expr::binary(BinOp::Add, shifted, Expr::var("a1_imm_bits"));
        let mut c = class(narrowed, &["a1_imm_bits", "a0_elem_width"]);
        name_immediates(&mut c);
        assert_eq!(c.template.args[1].name, "shift");
        assert_eq!(c.template.args[0].name, "a0", "operands keep their names");
        let names: Vec<&str> = c.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["shift_imm_bits", "a0_elem_width"]);
        let mut t = c.template.clone();
        let read = names_in(&mut t);
        assert!(read.contains("shift") && read.contains("shift_imm_bits") && !read.contains("a1"), "{read:?}");
    }

    #[test]
    fn a_name_the_class_has_gets_a_suffix() {
        let selected = Expr::Select {
            cond: Box::new(Expr::var("a1")),
            then: Box::new(Expr::var("a0")),
            otherwise: Box::new(Expr::var("selector")),
        };
        let mut c = class(selected, &["selector"]);
        name_immediates(&mut c);
        assert_eq!(c.template.args[1].name, "selector_2");
    }
}
