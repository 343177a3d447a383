//! From an instruction's LLVM operands to the IR's arguments and result,
//! and to where each register name of the source lives.
//!
//! Inputs become arguments in LLVM's operand order (the intrinsic's order).
//! Outputs are laid end to end in one result, in LLVM's order: a vector and
//! its carry predicate are bits `0..1024` and `1024..1152`. An operand both
//! read and written (`Vx32in` → `Vx32`, an accumulator) is an argument whose
//! value the result starts from.

use super::c::ctype::CType;
use super::c::translate::RegBinding;
use super::data::{Definition, InstrInfo, Operand, OperandClass};
use crate::sema::ir::{Arg, ArgKind, ElemType, Expr, Place, Span, Stmt, StmtKind};
use std::collections::BTreeMap;

/// The result variable.
pub const RESULT: &str = "dst";

#[derive(Clone, Debug)]
pub struct Binding {
    pub args: Vec<Arg>,
    pub result: Arg,
    /// Source name (`VuV`) → where it lives.
    pub regs: BTreeMap<String, RegBinding>,
    /// Statements that start the result from accumulator arguments.
    pub prologue: Vec<Stmt>,
    /// Result parts: (source name, offset, width).
    pub parts: Vec<(String, u32, u32)>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("operand `{operand}`: {message}")]
pub struct BindError {
    pub operand: String,
    pub message: String,
}

/// The lane type the syntax gives an operand (`Vu32.ub` → u8), if any.
fn syntax_lane(syntax: &str, op: &Operand) -> Option<ElemType> {
    let base = op.name.strip_suffix("in").unwrap_or(&op.name);
    let p = syntax.find(&format!("{base}."))?;
    let field: String = syntax[p + base.len() + 1..].chars().take_while(char::is_ascii_alphabetic).collect();
    let (width, signed) = match field.as_str() {
        "b" => (8, true),
        "ub" => (8, false),
        "h" => (16, true),
        "uh" => (16, false),
        "w" => (32, true),
        "uw" => (32, false),
        _ => return None,
    };
    Some(ElemType { width, signed })
}

fn arg_of(op: &Operand, syntax: &str) -> Result<Arg, BindError> {
    let fail = |m: &str| Err(BindError { operand: op.name.clone(), message: m.to_string() });
    let name = op.source_name().trim_end_matches('V').to_string();
    let (kind, elem, imm_bits) = match op.class {
        // Lanes are signless: every read says how it takes a lane
        // (`AsInteger(x, unsigned)`), so the signed and unsigned forms of an
        // operation differ only in that number and can share a template.
        OperandClass::Vector | OperandClass::Pair => {
            let width = syntax_lane(syntax, op).map_or(8, |e| e.width);
            (ArgKind::Vector, ElemType { width, signed: false }, None)
        }
        OperandClass::Predicate => (ArgKind::Mask, ElemType { width: 1, signed: false }, None),
        OperandClass::Scalar => (ArgKind::Scalar, ElemType { width: 32, signed: true }, None),
        OperandClass::ScalarPair => (ArgKind::Scalar, ElemType { width: 64, signed: true }, None),
        OperandClass::Immediate { bits, signed } => (ArgKind::Immediate, ElemType { width: 32, signed }, Some(bits)),
        OperandClass::Other => return fail("register class not modelled (a scalar predicate: conditional execution)"),
    };
    let imm_range = match op.class {
        OperandClass::Immediate { bits, signed: false } => Some((0, (1i64 << bits) - 1)),
        OperandClass::Immediate { bits, signed: true } => Some((-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)),
        _ => None,
    };
    Ok(Arg { name, kind, width: op.class.width(), elem, imm_bits, imm_range })
}

pub fn bind(def: &Definition, info: &InstrInfo) -> Result<Binding, BindError> {
    let mut regs = BTreeMap::new();
    let mut parts = Vec::new();
    let mut offset = 0u32;
    for out in &info.outs {
        if matches!(out.class, OperandClass::Immediate { .. } | OperandClass::Other) {
            return Err(BindError { operand: out.name.clone(), message: "output register class not modelled".into() });
        }
        let width = out.class.width();
        regs.insert(out.source_name(), RegBinding { var: RESULT.into(), offset, width, whole: None, writable: true });
        parts.push((out.source_name(), offset, width));
        offset += width;
    }
    if parts.is_empty() {
        return Err(BindError {
            operand: def.tag.clone(),
            message: "no output operand: it updates registers it does not name (histogram)".into(),
        });
    }
    let first = &info.outs[0];
    let (kind, elem) = if info.outs.len() == 1 && first.class == OperandClass::Predicate {
        (ArgKind::Mask, ElemType { width: 1, signed: false })
    } else {
        (ArgKind::Vector, ElemType { width: syntax_lane(&def.syntax, first).map_or(8, |e| e.width), signed: false })
    };
    let result = Arg { name: RESULT.into(), kind, width: offset, elem, imm_bits: None, imm_range: None };
    let mut args = Vec::new();
    let mut prologue = Vec::new();
    for op in &info.ins {
        let arg = arg_of(op, &def.syntax)?;
        let source = op.source_name();
        if let Some(&(_, off, width)) = parts.iter().find(|(n, _, _)| *n == source).filter(|_| op.name.ends_with("in")) {
            let range = Some((Expr::int(i64::from(off + width - 1)), Expr::int(i64::from(off))));
            prologue.push(Stmt {
                span: Span::default(),
                kind: StmtKind::Assign { place: Place { var: RESULT.into(), range }, value: Expr::var(&arg.name) },
            });
        } else {
            let whole = match op.class {
                OperandClass::Scalar => Some(CType::new(32, true)),
                OperandClass::ScalarPair => Some(CType::new(64, true)),
                OperandClass::Immediate { signed, .. } => Some(CType::new(32, signed)),
                _ => None,
            };
            regs.insert(source, RegBinding { var: arg.name.clone(), offset: 0, width: arg.width, whole, writable: false });
        }
        args.push(arg);
    }
    Ok(Binding { args, result, regs, prologue, parts })
}
