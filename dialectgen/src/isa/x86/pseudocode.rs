//! Parser for the `<operation>` pseudocode of Intel's Intrinsics Guide.
//!
//! Lane accessors (`a.byte[j]`, `tmp.m128[i].dword[0]`, `x.bit[i]`) are
//! resolved here into bit ranges, so the IR only knows `[hi:lo]` slices.

use super::lexer::{tokenize, LexError, Tok, Token};
use crate::sema::ir::{BinOp, CaseArm, Expr, Function, Place, Span, Stmt, StmtKind, UnOp};
use num_bigint::BigInt;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum ParseError {
    #[error(transparent)]
    Lex(#[from] LexError),
    #[error("{span}: {message}")]
    Syntax { span: Span, message: String },
}

impl ParseError {
    pub fn span(&self) -> Span {
        match self {
            ParseError::Lex(e) => e.span,
            ParseError::Syntax { span, .. } => *span,
        }
    }
}

/// A parsed operation: helper definitions and the main statements.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    pub functions: Vec<Function>,
    pub body: Vec<Stmt>,
}

pub fn parse_operation(src: &str) -> Result<Operation, ParseError> {
    let tokens = tokenize(src)?;
    let mut p = Parser { tokens, pos: 0 };
    let mut functions = Vec::new();
    let mut body = Vec::new();
    loop {
        p.skip_newlines();
        if p.at_eof() {
            break;
        }
        if p.at_keyword("DEFINE") {
            functions.push(p.parse_define()?);
        } else {
            body.push(p.parse_stmt()?);
        }
    }
    Ok(Operation { functions, body })
}

/// Bits per element of a lane accessor such as `.dword`.
fn lane_width(name: &str) -> Option<u32> {
    Some(match name {
        "bit" => 1,
        "byte" => 8,
        "word" => 16,
        "dword" => 32,
        "qword" => 64,
        "m128" => 128,
        "m256" => 256,
        "m512" => 512,
        _ => return None,
    })
}

const BLOCK_END: &[&str] = &["ENDFOR", "FI", "ENDIF", "ELSE", "ESAC", "OD", "ENDWHILE"];

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

type PResult<T> = Result<T, ParseError>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }
    fn bump(&mut self) -> Tok {
        let t = self.tokens[self.pos].tok.clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }
    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    fn at_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }
    fn at_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == k)
    }
    fn at_keyword_ci(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x.eq_ignore_ascii_case(k))
    }
    fn error<T>(&self, message: impl Into<String>) -> PResult<T> {
        Err(ParseError::Syntax { span: self.span(), message: message.into() })
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(n) => format!("`{n}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Newline => "end of line".into(),
            Tok::Eof => "end of input".into(),
        }
    }
    fn expect_sym(&mut self, s: &str) -> PResult<()> {
        if self.at_sym(s) {
            self.bump();
            Ok(())
        } else {
            self.error(format!("expected `{s}`, found {}", self.describe()))
        }
    }
    fn expect_keyword(&mut self, k: &str) -> PResult<()> {
        if self.at_keyword_ci(k) {
            self.bump();
            Ok(())
        } else {
            self.error(format!("expected `{k}`, found {}", self.describe()))
        }
    }
    fn ident(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.error(format!("expected a name, found {}", self.describe())),
        }
    }
    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) || self.at_sym(";") {
            self.bump();
        }
    }
    fn end_of_stmt(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Newline | Tok::Eof => {
                self.skip_newlines();
                Ok(())
            }
            Tok::Sym(";") => {
                self.skip_newlines();
                Ok(())
            }
            // `ESAC` or `}` may close a one-line arm or body.
            Tok::Ident(k) if BLOCK_END.contains(&k.as_str()) => Ok(()),
            Tok::Sym("}") => Ok(()),
            _ => self.error(format!("expected end of statement, found {}", self.describe())),
        }
    }

    fn parse_define(&mut self) -> PResult<Function> {
        let span = self.span();
        self.expect_keyword("DEFINE")?;
        let name = self.ident()?;
        self.expect_sym("(")?;
        let mut params = Vec::new();
        while !self.at_sym(")") {
            params.push(self.ident()?);
            if self.at_sym("[") {
                // Declared width, e.g. `a[127:0]`: informative only.
                while !self.at_sym("]") && !self.at_eof() {
                    self.bump();
                }
                self.expect_sym("]")?;
            }
            if !self.at_sym(")") {
                self.expect_sym(",")?;
            }
        }
        self.expect_sym(")")?;
        self.skip_newlines();
        self.expect_sym("{")?;
        self.skip_newlines();
        let body = self.parse_block(false)?;
        self.expect_sym("}")?;
        Ok(Function { name, params, body, span })
    }

    /// Statements up to a block terminator (not consumed).
    fn parse_block(&mut self, in_case: bool) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            self.skip_newlines();
            match self.peek() {
                Tok::Eof => return Ok(out),
                Tok::Sym("}") => return Ok(out),
                Tok::Ident(k) if BLOCK_END.contains(&k.as_str()) => return Ok(out),
                Tok::Num(_) if in_case && matches!(self.peek_at(1), Tok::Sym(":")) => return Ok(out),
                Tok::Ident(k) if in_case && k == "DEFAULT" && matches!(self.peek_at(1), Tok::Sym(":")) => {
                    return Ok(out)
                }
                _ => out.push(self.parse_stmt()?),
            }
        }
    }

    fn parse_stmt(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Tok::Ident(k) if k == "FOR" => self.parse_for()?,
            Tok::Ident(k) if k == "IF" => {
                self.bump();
                let kind = self.parse_if_rest()?;
                self.end_of_stmt()?;
                kind
            }
            Tok::Ident(k) if k == "CASE" => self.parse_case()?,
            Tok::Ident(k) if k == "DO" || k == "WHILE" => self.parse_while()?,
            Tok::Ident(k) if k == "RETURN" => {
                self.bump();
                let value = self.parse_expr()?;
                self.end_of_stmt()?;
                StmtKind::Return { value }
            }
            Tok::Ident(_) if matches!(self.peek_at(1), Tok::Sym("(")) => {
                let func = self.ident()?;
                let args = self.parse_args()?;
                self.end_of_stmt()?;
                StmtKind::Call { func, args }
            }
            Tok::Ident(_) => self.parse_assign()?,
            _ => return self.error(format!("expected a statement, found {}", self.describe())),
        };
        Ok(Stmt { span, kind })
    }

    fn parse_for(&mut self) -> PResult<StmtKind> {
        self.expect_keyword("FOR")?;
        let var = self.ident()?;
        self.expect_sym(":=")?;
        let from = self.parse_expr()?;
        let descending = if self.at_keyword_ci("to") {
            false
        } else if self.at_keyword_ci("downto") {
            true
        } else {
            return self.error(format!("expected `to` or `downto`, found {}", self.describe()));
        };
        self.bump();
        let to = self.parse_expr()?;
        self.end_of_stmt()?;
        let body = self.parse_block(false)?;
        self.expect_keyword("ENDFOR")?;
        self.end_of_stmt()?;
        Ok(StmtKind::For { var, from, to, descending, body })
    }

    /// After `IF`: condition, branches and the closing `FI`. An `ELSE IF` on
    /// one line shares the outer `FI`.
    fn parse_if_rest(&mut self) -> PResult<StmtKind> {
        let cond = self.parse_expr()?;
        if self.at_keyword("THEN") {
            self.bump();
        }
        let then = self.parse_block(false)?;
        let otherwise = if self.at_keyword("ELSE") {
            self.bump();
            if self.at_keyword("IF") {
                let span = self.span();
                self.bump();
                let nested = self.parse_if_rest_chained()?;
                vec![Stmt { span, kind: nested }]
            } else {
                let b = self.parse_block(false)?;
                if !(self.at_keyword("FI") || self.at_keyword("ENDIF")) {
                    return self.error(format!("expected `FI`, found {}", self.describe()));
                }
                self.bump();
                b
            }
        } else {
            if !(self.at_keyword("FI") || self.at_keyword("ENDIF")) {
                return self.error(format!("expected `FI`, found {}", self.describe()));
            }
            self.bump();
            Vec::new()
        };
        Ok(StmtKind::If { cond, then, otherwise })
    }

    fn parse_if_rest_chained(&mut self) -> PResult<StmtKind> {
        self.parse_if_rest()
    }

    fn parse_case(&mut self) -> PResult<StmtKind> {
        self.expect_keyword("CASE")?;
        let scrutinee = self.parse_expr()?;
        self.expect_keyword("OF")?;
        self.skip_newlines();
        let mut arms = Vec::new();
        loop {
            self.skip_newlines();
            let label = match self.peek().clone() {
                Tok::Num(n) => n,
                Tok::Ident(k) if k == "ESAC" => break,
                _ => return self.error(format!("expected a CASE label, found {}", self.describe())),
            };
            self.bump();
            self.expect_sym(":")?;
            let body = self.parse_block(true)?;
            arms.push(CaseArm { label, body });
        }
        self.expect_keyword("ESAC")?;
        self.end_of_stmt()?;
        Ok(StmtKind::Case { scrutinee, arms })
    }

    fn parse_while(&mut self) -> PResult<StmtKind> {
        let do_form = self.at_keyword("DO");
        if do_form {
            self.bump();
        }
        self.expect_keyword("WHILE")?;
        let cond = self.parse_expr()?;
        self.end_of_stmt()?;
        let body = self.parse_block(false)?;
        if self.at_keyword("OD") || self.at_keyword("ENDWHILE") {
            self.bump();
        } else {
            return self.error(format!("expected `OD`, found {}", self.describe()));
        }
        self.end_of_stmt()?;
        Ok(StmtKind::While { cond, body })
    }

    fn parse_assign(&mut self) -> PResult<StmtKind> {
        let place = self.parse_place()?;
        let op = match self.peek() {
            Tok::Sym(s @ (":=" | "=" | "+=" | "-=" | ">>=" | "<<=" | "|=" | "&=" | "^=")) => *s,
            _ => return self.error(format!("expected `:=`, found {}", self.describe())),
        };
        self.bump();
        let rhs = self.parse_expr()?;
        self.end_of_stmt()?;
        let compound = match op {
            "+=" => Some(BinOp::Add),
            "-=" => Some(BinOp::Sub),
            ">>=" => Some(BinOp::Shr),
            "<<=" => Some(BinOp::Shl),
            "|=" => Some(BinOp::Or),
            "&=" => Some(BinOp::And),
            "^=" => Some(BinOp::Xor),
            _ => None,
        };
        let value = match compound {
            Some(bop) => Expr::binary(bop, place_expr(&place), rhs),
            None => rhs,
        };
        Ok(StmtKind::Assign { place, value })
    }

    fn parse_place(&mut self) -> PResult<Place> {
        let var = self.ident()?;
        let range = self.parse_accessors(None)?;
        Ok(Place { var, range })
    }

    /// A chain of `[i]`, `[hi:lo]` and `.lane[i]` on top of `range`.
    fn parse_accessors(&mut self, mut range: Option<(Expr, Expr)>) -> PResult<Option<(Expr, Expr)>> {
        loop {
            if self.at_sym("[") {
                self.bump();
                let first = self.parse_expr()?;
                let (hi, lo) = if self.at_sym(":") {
                    self.bump();
                    let lo = self.parse_expr()?;
                    (first, lo)
                } else {
                    (first.clone(), first)
                };
                self.expect_sym("]")?;
                range = Some(offset(&range, hi, lo));
            } else if self.at_sym(".") {
                self.bump();
                let name = self.ident()?;
                let Some(w) = lane_width(&name) else {
                    return self.error(format!("unknown lane accessor `.{name}`"));
                };
                let index = if self.at_sym("[") {
                    self.bump();
                    let i = self.parse_expr()?;
                    self.expect_sym("]")?;
                    i
                } else {
                    Expr::int(0)
                };
                let lo = if w == 1 { index } else { Expr::binary(BinOp::Mul, index, Expr::int(i64::from(w))) };
                let hi =
                    if w == 1 { lo.clone() } else { Expr::binary(BinOp::Add, lo.clone(), Expr::int(i64::from(w) - 1)) };
                range = Some(offset(&range, hi, lo));
            } else {
                return Ok(range);
            }
        }
    }

    fn parse_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_sym("(")?;
        let mut args = Vec::new();
        while !self.at_sym(")") {
            args.push(self.parse_expr()?);
            if !self.at_sym(")") {
                self.expect_sym(",")?;
            }
        }
        self.expect_sym(")")?;
        Ok(args)
    }

    pub(crate) fn parse_expr(&mut self) -> PResult<Expr> {
        let cond = self.parse_binary(0)?;
        if self.at_sym("?") {
            self.bump();
            let then = self.parse_expr()?;
            self.expect_sym(":")?;
            let otherwise = self.parse_expr()?;
            return Ok(Expr::Select { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) });
        }
        Ok(cond)
    }

    /// The binary operator at the cursor with its precedence level.
    fn binary_op(&self) -> Option<(BinOp, u8)> {
        let op = match self.peek() {
            Tok::Sym(s) => match *s {
                "||" => (BinOp::LogicalOr, 0),
                "&&" => (BinOp::LogicalAnd, 1),
                "|" => (BinOp::Or, 2),
                "^" => (BinOp::Xor, 3),
                "&" => (BinOp::And, 4),
                "==" => (BinOp::Eq, 5),
                "!=" | "<>" => (BinOp::Ne, 5),
                "<" => (BinOp::Lt, 6),
                "<=" => (BinOp::Le, 6),
                ">" => (BinOp::Gt, 6),
                ">=" => (BinOp::Ge, 6),
                "<<" => (BinOp::Shl, 7),
                ">>" => (BinOp::Shr, 7),
                "+" => (BinOp::Add, 8),
                "-" => (BinOp::Sub, 8),
                "*" => (BinOp::Mul, 9),
                "/" => (BinOp::Div, 9),
                "%" => (BinOp::Rem, 9),
                _ => return None,
            },
            Tok::Ident(s) => match s.to_ascii_uppercase().as_str() {
                "OR" => (BinOp::Or, 2),
                "XOR" => (BinOp::Xor, 3),
                "AND" => (BinOp::And, 4),
                _ => return None,
            },
            _ => return None,
        };
        Some(op)
    }

    fn parse_binary(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.parse_unary()?;
        loop {
            // `a OP b`: a comparison whose predicate is held in the variable OP.
            if min_level <= 5 && self.at_keyword("OP") {
                self.bump();
                let rhs = self.parse_binary(6)?;
                lhs = Expr::CompareBy { predicate: Box::new(Expr::var("OP")), lhs: Box::new(lhs), rhs: Box::new(rhs) };
                continue;
            }
            let Some((op, level)) = self.binary_op() else { return Ok(lhs) };
            if level < min_level {
                return Ok(lhs);
            }
            self.bump();
            let rhs = self.parse_binary(level + 1)?;
            lhs = Expr::binary(op, lhs, rhs);
        }
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Sym("-") => Some(UnOp::Neg),
            Tok::Sym("~") => Some(UnOp::Not),
            Tok::Sym("!") => Some(UnOp::LogicalNot),
            Tok::Ident(s) if s.eq_ignore_ascii_case("NOT") => Some(UnOp::Not),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let arg = self.parse_unary()?;
            return Ok(match (op, arg) {
                (UnOp::Neg, Expr::Int(n)) => Expr::Int(-n),
                (op, arg) => Expr::Unary { op, arg: Box::new(arg) },
            });
        }
        self.parse_postfix()
    }

    fn parse_postfix(&mut self) -> PResult<Expr> {
        let base = match self.peek().clone() {
            Tok::Num(n) => {
                self.bump();
                return Ok(Expr::Int(n));
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.parse_expr()?;
                self.expect_sym(")")?;
                e
            }
            Tok::Ident(name) => {
                self.bump();
                if self.at_sym("(") {
                    let args = self.parse_args()?;
                    Expr::Call { func: name, args }
                } else {
                    Expr::Var(name)
                }
            }
            _ => return self.error(format!("expected an expression, found {}", self.describe())),
        };
        match self.parse_accessors(None)? {
            None => Ok(base),
            Some((hi, lo)) if hi == lo => Ok(Expr::Bit { base: Box::new(base), index: Box::new(lo) }),
            Some((hi, lo)) => Ok(Expr::Slice { base: Box::new(base), hi: Box::new(hi), lo: Box::new(lo) }),
        }
    }
}

/// `[hi:lo]` relative to an enclosing range.
fn offset(outer: &Option<(Expr, Expr)>, hi: Expr, lo: Expr) -> (Expr, Expr) {
    match outer {
        None => (hi, lo),
        Some((_, base)) => (add(base.clone(), hi), add(base.clone(), lo)),
    }
}

fn add(a: Expr, b: Expr) -> Expr {
    match (&a, &b) {
        (Expr::Int(x), _) if *x == BigInt::from(0) => b,
        (_, Expr::Int(y)) if *y == BigInt::from(0) => a,
        _ => Expr::binary(BinOp::Add, a, b),
    }
}

/// The value a compound assignment (`x += 1`) reads.
fn place_expr(place: &Place) -> Expr {
    let base = Box::new(Expr::Var(place.var.clone()));
    match &place.range {
        None => Expr::Var(place.var.clone()),
        Some((hi, lo)) if hi == lo => Expr::Bit { base, index: Box::new(lo.clone()) },
        Some((hi, lo)) => Expr::Slice { base, hi: Box::new(hi.clone()), lo: Box::new(lo.clone()) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::print::expr_to_string;

    fn body(src: &str) -> Vec<Stmt> {
        parse_operation(src).unwrap().body
    }

    #[test]
    fn lane_accessors_become_bit_ranges() {
        let b = body("dst.qword[j].byte[i] := b.m128[h].dword[imm8[1:0]]\n");
        let StmtKind::Assign { place, value } = &b[0].kind else { panic!() };
        let (hi, lo) = place.range.as_ref().unwrap();
        assert_eq!(expr_to_string(lo), "((j * 64) + (i * 8))");
        assert_eq!(expr_to_string(hi), "((j * 64) + ((i * 8) + 7))");
        assert_eq!(expr_to_string(value), "b[((h * 128) + ((imm8[1:0] * 32) + 31)):((h * 128) + (imm8[1:0] * 32))]");
    }

    #[test]
    fn else_if_shares_one_fi() {
        let b = body("IF a\n x := 1\nELSE IF b\n x := 2\nELSE\n x := 3\nFI\ny := 4\n");
        assert_eq!(b.len(), 2);
        let StmtKind::If { otherwise, .. } = &b[0].kind else { panic!() };
        assert!(matches!(otherwise[0].kind, StmtKind::If { .. }));
    }

    #[test]
    fn case_arms_and_loops() {
        let b =
            body("CASE (imm8[1:0]) OF\n0: x := 1\n1:\n x := 2\n y := 3\nESAC\nFOR i := 7 downto 0\n x += i\nENDFOR\n");
        let StmtKind::Case { arms, .. } = &b[0].kind else { panic!() };
        assert_eq!(arms.len(), 2);
        assert_eq!(arms[1].body.len(), 2);
        let StmtKind::For { descending, body, .. } = &b[1].kind else { panic!() };
        assert!(*descending);
        let StmtKind::Assign { value, .. } = &body[0].kind else { panic!() };
        assert_eq!(expr_to_string(value), "(x + i)");
    }

    #[test]
    fn precedence_follows_c() {
        let b = body("x := a + b << 2 == c AND d OR e\n");
        let StmtKind::Assign { value, .. } = &b[0].kind else { panic!() };
        assert_eq!(expr_to_string(value), "(((((a + b) << 2) == c) AND d) OR e)");
    }

    #[test]
    fn errors_point_at_the_token() {
        let err = parse_operation("FOR j := 0 to 3\n  x := (1 +\nENDFOR\n").unwrap_err();
        assert_eq!(err.span().line, 2);
        let err = parse_operation("IF a\n x := 1\n").unwrap_err();
        assert!(err.to_string().contains("expected `FI`"), "{err}");
    }
}
