//! A readable, line-oriented rendering of the semantics IR.
//!
//! The syntax is close to the vendor pseudocode but fully parenthesized and
//! with lane accessors resolved, so what the IR means is visible at a glance.

use super::ir::{Arg, ArgKind, Expr, Semantics, Stmt, StmtKind, UnOp};
use std::fmt::Write as _;

pub fn expr_to_string(e: &Expr) -> String {
    match e {
        Expr::Int(i) => i.to_string(),
        Expr::Var(v) => v.clone(),
        Expr::Slice { base, hi, lo } => format!("{}[{}:{}]", atom(base), expr_to_string(hi), expr_to_string(lo)),
        Expr::Bit { base, index } => format!("{}[{}]", atom(base), expr_to_string(index)),
        Expr::Unary { op, arg } => {
            let sym = match op {
                UnOp::Neg => "-",
                UnOp::Not => "NOT ",
                UnOp::LogicalNot => "!",
            };
            format!("{sym}{}", atom(arg))
        }
        Expr::Binary { op, lhs, rhs } => format!("({} {} {})", expr_to_string(lhs), op.symbol(), expr_to_string(rhs)),
        Expr::CompareBy { predicate, lhs, rhs } => {
            format!("({} {} {})", expr_to_string(lhs), expr_to_string(predicate), expr_to_string(rhs))
        }
        Expr::OperateBy { family, code, lhs, rhs } => {
            format!("({} {}[{}] {})", expr_to_string(lhs), family.name(), expr_to_string(code), expr_to_string(rhs))
        }
        Expr::Select { cond, then, otherwise } => {
            format!("({} ? {} : {})", expr_to_string(cond), expr_to_string(then), expr_to_string(otherwise))
        }
        Expr::Call { func, args } => {
            format!("{func}({})", args.iter().map(expr_to_string).collect::<Vec<_>>().join(", "))
        }
    }
}

fn atom(e: &Expr) -> String {
    match e {
        Expr::Var(_) | Expr::Int(_) | Expr::Call { .. } | Expr::Binary { .. } | Expr::Select { .. } => {
            expr_to_string(e)
        }
        _ => format!("({})", expr_to_string(e)),
    }
}

fn block(out: &mut String, body: &[Stmt], depth: usize) {
    for s in body {
        stmt(out, s, depth);
    }
}

fn stmt(out: &mut String, s: &Stmt, depth: usize) {
    let pad = "  ".repeat(depth);
    match &s.kind {
        StmtKind::Assign { place, value } => {
            let target = match &place.range {
                None => place.var.clone(),
                Some((hi, lo)) if hi == lo => format!("{}[{}]", place.var, expr_to_string(lo)),
                Some((hi, lo)) => format!("{}[{}:{}]", place.var, expr_to_string(hi), expr_to_string(lo)),
            };
            let _ = writeln!(out, "{pad}{target} := {}", expr_to_string(value));
        }
        StmtKind::For { var, from, to, descending, body } => {
            let dir = if *descending { "downto" } else { "to" };
            let _ = writeln!(out, "{pad}FOR {var} := {} {dir} {}", expr_to_string(from), expr_to_string(to));
            block(out, body, depth + 1);
            let _ = writeln!(out, "{pad}ENDFOR");
        }
        StmtKind::While { cond, body } => {
            let _ = writeln!(out, "{pad}WHILE {}", expr_to_string(cond));
            block(out, body, depth + 1);
            let _ = writeln!(out, "{pad}OD");
        }
        StmtKind::If { cond, then, otherwise } => {
            let _ = writeln!(out, "{pad}IF {}", expr_to_string(cond));
            block(out, then, depth + 1);
            if !otherwise.is_empty() {
                let _ = writeln!(out, "{pad}ELSE");
                block(out, otherwise, depth + 1);
            }
            let _ = writeln!(out, "{pad}FI");
        }
        StmtKind::Case { scrutinee, arms } => {
            let _ = writeln!(out, "{pad}CASE {} OF", expr_to_string(scrutinee));
            for arm in arms {
                let _ = writeln!(out, "{pad}{}:", arm.label);
                block(out, &arm.body, depth + 1);
            }
            let _ = writeln!(out, "{pad}ESAC");
        }
        StmtKind::Return { value } => {
            let _ = writeln!(out, "{pad}RETURN {}", expr_to_string(value));
        }
        StmtKind::Call { func, args } => {
            let _ = writeln!(out, "{pad}{func}({})", args.iter().map(expr_to_string).collect::<Vec<_>>().join(", "));
        }
    }
}

fn arg_decl(a: &Arg) -> String {
    let kind = match a.kind {
        ArgKind::Vector => "vec",
        ArgKind::Mask => "mask",
        ArgKind::Scalar => "scalar",
        ArgKind::Immediate => "imm",
    };
    let sign = if a.elem.signed { 's' } else { 'u' };
    let imm = a.imm_bits.map(|b| format!(" decodes {b} bits")).unwrap_or_default();
    format!("{}: {kind}<{} x {sign}{}>{imm}", a.name, a.width / a.elem.width.max(1), a.elem.width)
}

/// The whole instruction: signature, helper functions and body.
pub fn semantics_to_string(s: &Semantics) -> String {
    let mut out = String::new();
    let args = s.args.iter().map(arg_decl).collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "{}({}) -> {}", s.name, args, arg_decl(&s.result));
    for f in &s.functions {
        let _ = writeln!(out, "  DEFINE {}({})", f.name, f.params.join(", "));
        block(&mut out, &f.body, 2);
        let _ = writeln!(out, "  END");
    }
    block(&mut out, &s.body, 1);
    out
}
