//! The ASL syntax tree: the subset Arm's A64 decode and execute blocks use.

use crate::sema::ir::Span;
use num_bigint::BigInt;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(BigInt),
    /// A bit-string literal, most significant bit first; `x` matches either bit.
    Bits(String),
    Bool(bool),
    Var(String),
    /// `f(args)`.
    Call(String, Vec<Expr>),
    /// `base[args]`: an array-like accessor (`V[n]`, `Elem[x, e, esize]`)
    /// or a bit slice (`x[7:0]`, `x[3]`).
    Index(Box<Expr>, Vec<IndexArg>),
    /// `base.field` (`FPSR.QC`).
    Field(Box<Expr>, String),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(a, b)`, or the `-` of a tuple assignment.
    Tuple(Vec<Expr>),
    Discard,
    /// `e IN {p, …}`.
    In(Box<Expr>, Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum IndexArg {
    One(Expr),
    /// `hi:lo`.
    Range(Expr, Expr),
    /// `lo +: width`.
    Width(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Integer,
    Boolean,
    Bit,
    Bits(Expr),
    /// An enumeration or other named type.
    Named(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub span: Span,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `T x = e, y;`
    Decl {
        ty: Type,
        vars: Vec<(String, Option<Expr>)>,
    },
    Assign {
        target: Expr,
        value: Expr,
    },
    /// A call for its effect.
    Call(Expr),
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Vec<Stmt>,
    },
    For {
        var: String,
        from: Expr,
        to: Expr,
        down: bool,
        body: Vec<Stmt>,
    },
    Case {
        scrutinee: Expr,
        arms: Vec<(Vec<Expr>, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    Return(Option<Expr>),
    Undefined,
    Unpredictable,
    /// `SEE(...)` / `SEE "..."`: the encoding belongs to another instruction.
    See(String),
}
