//! The syntax tree of the C subset the instruction definitions are written in.

use super::ctype::CType;
use crate::sema::ir::Span;
use num_bigint::BigInt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CUnary {
    Neg,
    Plus,
    BitNot,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CBinary {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CExpr {
    pub span: Span,
    pub kind: CExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CExprKind {
    /// A literal and the type C gives it.
    Int(BigInt, CType),
    Name(String),
    /// `base.field` (a lane view such as `.h`, or a pair half `.v`).
    Member(Box<CExpr>, String),
    Index(Box<CExpr>, Box<CExpr>),
    /// `base[hi:lo]`, the manual's bit range.
    BitRange(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    Call(String, Vec<CExpr>),
    Unary(CUnary, Box<CExpr>),
    Binary(CBinary, Box<CExpr>, Box<CExpr>),
    Ternary(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    Cast(CType, Box<CExpr>),
    /// `place = value`, or `place op= value` when `op` is set.
    Assign(Option<CBinary>, Box<CExpr>, Box<CExpr>),
    /// `place++` / `place--` (as statements and `for` steps).
    Step(Box<CExpr>, i64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CStmt {
    pub span: Span,
    pub kind: CStmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CStmtKind {
    Expr(CExpr),
    /// `type name [= init]`.
    Decl(CType, String, Option<CExpr>),
    /// A register-sized local (`mmvector_t tmp`): its width in bits.
    RegDecl(u32, String),
    Block(Vec<CStmt>),
    If(CExpr, Box<CStmt>, Option<Box<CStmt>>),
    For { init: Option<Box<CStmt>>, cond: Option<CExpr>, step: Option<CExpr>, body: Box<CStmt> },
    Empty,
}
