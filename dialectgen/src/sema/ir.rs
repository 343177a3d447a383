//! The semantics IR: a small imperative bitvector language (the Hydride IR).
//!
//! Instruction semantics are programs over named bitvector variables with
//! counted loops, conditionals, `CASE` selection and calls to helper
//! functions. Integer literals and loop counters are unbounded integers;
//! everything read from a register is a bitvector with a width and a
//! signedness. The rules that give widths to expressions live in
//! [`crate::eval`], so the interpreter, the Z3 encoding and the type checker
//! share one definition.

use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

/// Reserved variable: the index of the result's top bit (`dst[RESULT_TOP:256] := 0`
/// clears what lies beyond a narrower result).
pub const RESULT_TOP: &str = "RESULT_TOP";

/// Reserved variables naming comparison predicates, by their codes as
/// [`Expr::CompareBy`] reads them.
pub const COMPARISON_PREDICATES: [&str; 8] =
    ["CMP_EQ", "CMP_LT", "CMP_LE", "CMP_FALSE", "CMP_NE", "CMP_NLT", "CMP_NLE", "CMP_TRUE"];

/// The comparison a [`Expr::CompareBy`] predicate code stands for (`None`
/// for 3, always false, and 7, always true).
pub fn comparison_of_code(code: u8) -> Option<BinOp> {
    Some(match code & 7 {
        0 => BinOp::Eq,
        1 => BinOp::Lt,
        2 => BinOp::Le,
        4 => BinOp::Ne,
        5 => BinOp::Ge,
        6 => BinOp::Gt,
        _ => return None,
    })
}

/// The [`Expr::CompareBy`] predicate code of comparison `op`.
pub fn code_of_comparison(op: BinOp) -> Option<u8> {
    (0..8).find(|&c| comparison_of_code(c) == Some(op))
}

/// The families of binary operators an [`Expr::OperateBy`] chooses among
/// by a number, as [`Expr::CompareBy`] chooses a comparison and a
/// ternary-logic instruction carries its truth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperatorFamily {
    /// `lhs + code * rhs`, `code` 1 or -1: addition or subtraction.
    Additive,
    /// Bit by bit: the result bit is bit `2 * l + r` of the 4-bit truth
    /// table `code`, for bits `l` of `lhs` and `r` of `rhs` (AND 8, OR 14,
    /// XOR 6, `lhs AND NOT rhs` 4).
    Bitwise,
    /// `lhs` shifted left by `rhs` bits (`code` 1) or right (`code` -1).
    Shift,
}

impl OperatorFamily {
    /// The family's name as the pseudocode printer writes it.
    pub fn name(self) -> &'static str {
        match self {
            OperatorFamily::Additive => "ADD_OR_SUB",
            OperatorFamily::Bitwise => "BITWISE",
            OperatorFamily::Shift => "SHIFT",
        }
    }
}

/// The family and code an [`Expr::OperateBy`] writes binary operator `op`
/// with (`None` for operators of no family).
pub fn operator_code(op: BinOp) -> Option<(OperatorFamily, i64)> {
    Some(match op {
        BinOp::Add => (OperatorFamily::Additive, 1),
        BinOp::Sub => (OperatorFamily::Additive, -1),
        BinOp::And => (OperatorFamily::Bitwise, 8),
        BinOp::Or => (OperatorFamily::Bitwise, 14),
        BinOp::Xor => (OperatorFamily::Bitwise, 6),
        BinOp::Shl => (OperatorFamily::Shift, 1),
        BinOp::Shr => (OperatorFamily::Shift, -1),
        _ => return None,
    })
}

/// The binary operator `code` stands for in `family`, where one does (a
/// bitwise truth table other than AND, OR and XOR has none).
pub fn operator_of_code(family: OperatorFamily, code: i64) -> Option<BinOp> {
    FAMILY_OPERATORS.into_iter().find(|&op| operator_code(op) == Some((family, code)))
}

/// The binary operators that belong to an [`OperatorFamily`].
const FAMILY_OPERATORS: [BinOp; 7] =
    [BinOp::Add, BinOp::Sub, BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Shl, BinOp::Shr];

/// Whether `name` is a reserved variable (never renamed, never a local).
pub fn is_reserved(name: &str) -> bool {
    name == RESULT_TOP || COMPARISON_PREDICATES.contains(&name)
}

/// A position in the vendor pseudocode (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnOp {
    /// Arithmetic negation (exact).
    Neg,
    /// Bitwise complement within the operand width.
    Not,
    /// Logical negation: 1 when the operand is zero.
    LogicalNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "AND",
            BinOp::Or => "OR",
            BinOp::Xor => "XOR",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::LogicalAnd => "&&",
            BinOp::LogicalOr => "||",
        }
    }
}

/// An expression. Widths are not stored: they follow from the operands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    /// An integer literal (unbounded; takes a width from its context).
    Int(BigInt),
    /// A named variable, argument or symbolic constant.
    Var(String),
    /// Bits `hi` down to `lo` of `base`, both inclusive.
    Slice {
        base: Box<Expr>,
        hi: Box<Expr>,
        lo: Box<Expr>,
    },
    /// One bit of `base`.
    Bit {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Unary {
        op: UnOp,
        arg: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A comparison whose predicate is a value: 0 `==`, 1 `<`, 2 `<=`, 3 false,
    /// 4 `!=`, 5 `>=`, 6 `>`, 7 true (named by [`COMPARISON_PREDICATES`]).
    CompareBy {
        predicate: Box<Expr>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A binary operator of `family` chosen by the number `code` (see
    /// [`OperatorFamily`]).
    OperateBy {
        family: OperatorFamily,
        code: Box<Expr>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `cond ? then : otherwise`.
    Select {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// A call of a built-in helper or of a function defined with the instruction.
    Call {
        func: String,
        args: Vec<Expr>,
    },
}

impl Expr {
    pub fn int(v: i64) -> Expr {
        Expr::Int(BigInt::from(v))
    }
    pub fn var(name: &str) -> Expr {
        Expr::Var(name.to_string())
    }
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }
    }
}

/// Where an assignment writes: a whole variable or a bit range of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Place {
    pub var: String,
    /// `(hi, lo)`, inclusive; `None` replaces the whole variable.
    pub range: Option<(Expr, Expr)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stmt {
    pub span: Span,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    Assign {
        place: Place,
        value: Expr,
    },
    /// `FOR var := from TO to` (inclusive, or `DOWNTO` when `descending`);
    /// the body may change `var`.
    For {
        var: String,
        from: Expr,
        to: Expr,
        descending: bool,
        body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    Case {
        scrutinee: Expr,
        arms: Vec<CaseArm>,
    },
    Return {
        value: Expr,
    },
    /// A call evaluated for its effect on flags only.
    Call {
        func: String,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseArm {
    pub label: BigInt,
    pub body: Vec<Stmt>,
}

/// A helper function defined next to an instruction (`DEFINE name(args) { … }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// How an argument is passed to the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    /// A vector register.
    Vector,
    /// A mask register (one bit per element).
    Mask,
    /// A general-purpose scalar.
    Scalar,
    /// A compile-time immediate.
    Immediate,
}

/// Element type of a register: width and whether elements read as signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElemType {
    pub width: u32,
    pub signed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arg {
    pub name: String,
    pub kind: ArgKind,
    /// Width in bits of the value as passed.
    pub width: u32,
    pub elem: ElemType,
    /// For immediates: how many low bits the instruction decodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imm_bits: Option<u32>,
    /// For immediates whose vendor gives their values: the inclusive range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imm_range: Option<(i64, i64)>,
}

impl Arg {
    /// A scalar of `width` unsigned bits, one element wide (semantics built
    /// by hand, as tests do).
    pub fn scalar(name: &str, width: u32) -> Arg {
        Arg {
            name: name.into(),
            kind: ArgKind::Scalar,
            width,
            elem: ElemType { width, signed: false },
            imm_bits: None,
            imm_range: None,
        }
    }
}

/// The semantics of one instruction (or intrinsic).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Semantics {
    pub name: String,
    pub args: Vec<Arg>,
    /// The result: its name in the pseudocode, kind, width and element type.
    pub result: Arg,
    pub functions: Vec<Function>,
    pub body: Vec<Stmt>,
}

impl Semantics {
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// How many top-level `FOR` loops the body has.
    pub fn top_level_loops(&self) -> usize {
        self.body.iter().filter(|s| matches!(s.kind, StmtKind::For { .. })).count()
    }

    /// The target op's operand index of each argument (immediates have
    /// none), where argument `k` is the C intrinsic's argument
    /// `c_position[k]`: an op's operands are the C arguments less the
    /// immediates, in C order. For semantics in C order, `c_position` is
    /// `0, 1, 2, ...`.
    pub fn op_operands(&self, c_position: &[usize]) -> Vec<Option<usize>> {
        let immediates: Vec<usize> =
            self.args.iter().zip(c_position).filter(|(a, _)| a.kind == ArgKind::Immediate).map(|(_, &p)| p).collect();
        self.args
            .iter()
            .zip(c_position)
            .map(|(a, &p)| (a.kind != ArgKind::Immediate).then(|| p - immediates.iter().filter(|&&i| i < p).count()))
            .collect()
    }

    /// [`Self::op_operands`] for semantics in C order.
    pub fn op_operands_in_c_order(&self) -> Vec<Option<usize>> {
        self.op_operands(&(0..self.args.len()).collect::<Vec<_>>())
    }
}
