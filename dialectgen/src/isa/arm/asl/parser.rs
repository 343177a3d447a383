//! A recursive-descent parser for ASL statements and expressions.

use super::ast::{Expr, IndexArg, Stmt, StmtKind, Type};
use super::lexer::{lex, LexError, Tok, Token};
use crate::sema::ir::Span;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        ParseError { span: e.span, message: e.message }
    }
}

/// Parses a block of statements (a `__decode` or `__execute` body, or a
/// function body) whose first line is line `first_line` of its file.
pub fn parse_block(text: &str, first_line: u32) -> Result<Vec<Stmt>, ParseError> {
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let dedented: String = text
        .lines()
        .map(|l| if l.len() >= indent && l[..indent].trim().is_empty() { &l[indent..] } else { l.trim_start() })
        .collect::<Vec<_>>()
        .join("\n");
    let tokens = lex(&dedented, first_line)?;
    let mut p = Parser { t: tokens, i: 0, no_concat: false };
    let body = p.stmts_until_dedent()?;
    if !p.at(&Tok::Eof) {
        return p.err("unexpected text after the block");
    }
    Ok(body)
}

/// Parses one expression (for tests and decode tables).
pub fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    let mut p = Parser { t: lex(text, 1)?, i: 0, no_concat: false };
    let e = p.expr()?;
    p.skip_newlines();
    if !p.at(&Tok::Eof) {
        return p.err("unexpected text after the expression");
    }
    Ok(e)
}

struct Parser {
    t: Vec<Token>,
    i: usize,
    /// Inside `[…]`, a top-level `:` separates a bit range's bounds.
    no_concat: bool,
}

const TYPE_WORDS: &[&str] = &["integer", "boolean", "bit", "bits", "constant"];

impl Parser {
    fn peek(&self) -> &Tok {
        &self.t[self.i.min(self.t.len() - 1)].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.t[(self.i + k).min(self.t.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.t[self.i.min(self.t.len() - 1)].span
    }
    fn at(&self, t: &Tok) -> bool {
        self.peek() == t
    }
    fn at_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn at_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        self.i += 1;
        t
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        let found = match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(n) => format!("`{n}`"),
            Tok::Bits(b) => format!("'{b}'"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Newline => "end of line".into(),
            Tok::Indent => "indentation".into(),
            Tok::Dedent => "end of block".into(),
            Tok::Eof => "end of text".into(),
        };
        Err(ParseError { span: self.span(), message: format!("{} (found {found})", message.into()) })
    }
    fn expect_punct(&mut self, p: &str) -> Result<(), ParseError> {
        if self.at_punct(p) {
            self.i += 1;
            Ok(())
        } else {
            self.err(format!("expected `{p}`"))
        }
    }
    fn expect_word(&mut self, w: &str) -> Result<(), ParseError> {
        if self.at_word(w) {
            self.i += 1;
            Ok(())
        } else {
            self.err(format!("expected `{w}`"))
        }
    }
    fn ident(&mut self) -> Result<String, ParseError> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.i += 1;
                Ok(s)
            }
            _ => self.err("expected a name"),
        }
    }
    fn skip_newlines(&mut self) {
        while self.at(&Tok::Newline) {
            self.i += 1;
        }
    }

    fn stmts_until_dedent(&mut self) -> Result<Vec<Stmt>, ParseError> {
        let mut out = Vec::new();
        loop {
            self.skip_newlines();
            if matches!(self.peek(), Tok::Dedent | Tok::Eof) {
                return Ok(out);
            }
            if self.at(&Tok::Indent) {
                // A continuation block without a header: take it as nested statements.
                self.i += 1;
                out.extend(self.stmts_until_dedent()?);
                if self.at(&Tok::Dedent) {
                    self.i += 1;
                }
                continue;
            }
            out.push(self.stmt()?);
        }
    }

    /// After `then`, `else`, `of`-arm labels or a `for` header: an indented
    /// block on the next lines, or statements on the same line.
    fn body(&mut self) -> Result<Vec<Stmt>, ParseError> {
        if self.at(&Tok::Newline) {
            self.skip_newlines();
            if !self.at(&Tok::Indent) {
                return Ok(Vec::new());
            }
            self.i += 1;
            let b = self.stmts_until_dedent()?;
            if self.at(&Tok::Dedent) {
                self.i += 1;
            }
            return Ok(b);
        }
        let mut out = vec![self.stmt()?];
        while !matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Dedent)
            && !self.at_word("else")
            && !self.at_word("elsif")
        {
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    fn stmt(&mut self) -> Result<Stmt, ParseError> {
        let span = self.span();
        let kind = self.stmt_kind()?;
        Ok(Stmt { span, kind })
    }

    fn end_simple(&mut self) -> Result<(), ParseError> {
        self.expect_punct(";")
    }

    fn stmt_kind(&mut self) -> Result<StmtKind, ParseError> {
        if self.at_word("if") {
            return self.if_stmt();
        }
        if self.at_word("for") {
            return self.for_stmt();
        }
        if self.at_word("case") {
            return self.case_stmt();
        }
        if self.at_word("return") {
            self.i += 1;
            let e = if self.at_punct(";") { None } else { Some(self.expr()?) };
            self.end_simple()?;
            return Ok(StmtKind::Return(e));
        }
        if self.at_word("assert") {
            self.i += 1;
            let e = self.expr()?;
            self.end_simple()?;
            return Ok(StmtKind::Call(Expr::Call("assert".into(), vec![e])));
        }
        if self.at_word("UNDEFINED") || self.at_word("UNPREDICTABLE") {
            let undefined = self.at_word("UNDEFINED");
            self.i += 1;
            self.end_simple()?;
            return Ok(if undefined { StmtKind::Undefined } else { StmtKind::Unpredictable });
        }
        if self.at_word("SEE") {
            return self.see_stmt();
        }
        if let Some(ty) = self.try_type()? {
            return self.decl_stmt(ty);
        }
        let target = self.expr()?;
        if self.at_punct("=") {
            self.i += 1;
            let value = self.expr()?;
            self.end_simple()?;
            return Ok(StmtKind::Assign { target, value });
        }
        self.end_simple()?;
        Ok(StmtKind::Call(target))
    }

    /// `for var = from to|downto to` and its body.
    fn for_stmt(&mut self) -> Result<StmtKind, ParseError> {
        self.i += 1;
        let var = self.ident()?;
        self.expect_punct("=")?;
        let from = self.expr()?;
        let down = if self.at_word("downto") {
            true
        } else {
            self.expect_word("to")?;
            false
        };
        if down {
            self.i += 1;
        }
        let to = self.expr()?;
        let body = self.body()?;
        Ok(StmtKind::For { var, from, to, down, body })
    }

    /// `SEE "…";`: the words and strings up to the `;`, parentheses dropped.
    fn see_stmt(&mut self) -> Result<StmtKind, ParseError> {
        self.i += 1;
        let mut what = String::new();
        while !self.at_punct(";") && !matches!(self.peek(), Tok::Newline | Tok::Eof) {
            match self.bump() {
                Tok::Ident(s) | Tok::Str(s) => what.push_str(&s),
                Tok::Punct(p) if p != "(" && p != ")" => what.push_str(p),
                _ => {}
            }
        }
        self.end_simple()?;
        Ok(StmtKind::See(what))
    }

    /// The variables of a declaration of type `ty`, each with its initial
    /// value if any: `bits(4) a, b = x;`.
    fn decl_stmt(&mut self, ty: Type) -> Result<StmtKind, ParseError> {
        let mut vars = Vec::new();
        loop {
            let name = self.ident()?;
            let init = if self.at_punct("=") {
                self.i += 1;
                Some(self.expr()?)
            } else {
                None
            };
            vars.push((name, init));
            if self.at_punct(",") {
                self.i += 1;
                continue;
            }
            break;
        }
        self.end_simple()?;
        Ok(StmtKind::Decl { ty, vars })
    }

    /// A type at the start of a declaration: `bits(N) x`, `integer x`,
    /// `constant integer x`, or `Named x` (two names in a row).
    fn try_type(&mut self) -> Result<Option<Type>, ParseError> {
        if self.at_word("constant") {
            self.i += 1;
            return Ok(Some(self.try_type()?.unwrap_or(Type::Integer)));
        }
        let Tok::Ident(w) = self.peek().clone() else { return Ok(None) };
        if !TYPE_WORDS.contains(&w.as_str()) {
            if matches!(self.peek_at(1), Tok::Ident(_)) && !matches!(self.peek_at(1), Tok::Ident(s) if s == "IN") {
                self.i += 1;
                return Ok(Some(Type::Named(w)));
            }
            return Ok(None);
        }
        self.i += 1;
        Ok(Some(match w.as_str() {
            "integer" => Type::Integer,
            "boolean" => Type::Boolean,
            "bit" => Type::Bit,
            _ => {
                self.expect_punct("(")?;
                let e = self.expr()?;
                self.expect_punct(")")?;
                Type::Bits(e)
            }
        }))
    }

    fn if_stmt(&mut self) -> Result<StmtKind, ParseError> {
        self.expect_word("if")?;
        let mut arms = Vec::new();
        let c = self.expr()?;
        self.expect_word("then")?;
        arms.push((c, self.body()?));
        let mut otherwise = Vec::new();
        loop {
            // `elsif`/`else` may follow on the next line at the same indentation.
            let save = self.i;
            self.skip_newlines();
            if self.at_word("elsif") {
                self.i += 1;
                let c = self.expr()?;
                self.expect_word("then")?;
                arms.push((c, self.body()?));
                continue;
            }
            if self.at_word("else") {
                self.i += 1;
                if self.at_word("if") {
                    let span = self.span();
                    let kind = self.if_stmt()?;
                    otherwise = vec![Stmt { span, kind }];
                } else {
                    otherwise = self.body()?;
                }
                break;
            }
            self.i = save;
            break;
        }
        Ok(StmtKind::If { arms, otherwise })
    }

    fn case_stmt(&mut self) -> Result<StmtKind, ParseError> {
        self.expect_word("case")?;
        let scrutinee = self.expr()?;
        self.expect_word("of")?;
        self.skip_newlines();
        if !self.at(&Tok::Indent) {
            return self.err("expected the `when` arms of a case");
        }
        self.i += 1;
        let mut arms = Vec::new();
        let mut otherwise = None;
        loop {
            self.skip_newlines();
            if self.at_word("when") {
                self.i += 1;
                let mut pats = vec![self.expr()?];
                while self.at_punct(",") {
                    self.i += 1;
                    pats.push(self.expr()?);
                }
                arms.push((pats, self.body()?));
            } else if self.at_word("otherwise") {
                self.i += 1;
                otherwise = Some(self.body()?);
            } else {
                break;
            }
        }
        if self.at(&Tok::Dedent) {
            self.i += 1;
        } else {
            return self.err("expected `when`, `otherwise` or the end of the case");
        }
        Ok(StmtKind::Case { scrutinee, arms, otherwise })
    }

    pub fn expr(&mut self) -> Result<Expr, ParseError> {
        if self.at_word("if") {
            self.i += 1;
            let c = self.expr()?;
            self.expect_word("then")?;
            let a = self.expr()?;
            self.expect_word("else")?;
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        self.binary(0)
    }

    fn binary(&mut self, level: usize) -> Result<Expr, ParseError> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["==", "!=", "<", "<=", ">", ">=", "IN"],
            &["OR", "EOR", "|"],
            &["AND", "&"],
            &["<<", ">>"],
            &["+", "-", "++"],
            &["*", "/", "DIV", "MOD", "^"],
            &[":"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Tok::Punct(p) => LEVELS[level].iter().find(|o| *o == p).copied(),
                Tok::Ident(w) => LEVELS[level].iter().find(|o| **o == w.as_str()).copied(),
                _ => None,
            };
            let Some(op) = op else { return Ok(lhs) };
            if op == ":" && self.no_concat {
                return Ok(lhs);
            }
            self.i += 1;
            if op == "IN" {
                self.expect_punct("{")?;
                let mut pats = vec![self.expr()?];
                while self.at_punct(",") {
                    self.i += 1;
                    pats.push(self.expr()?);
                }
                self.expect_punct("}")?;
                lhs = Expr::In(Box::new(lhs), pats);
                continue;
            }
            let rhs = self.binary(level + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.at_punct("-") {
            self.i += 1;
            if self.at_punct(",") || self.at_punct(")") {
                return Ok(Expr::Discard);
            }
            return Ok(Expr::Unary("-", Box::new(self.unary()?)));
        }
        if self.at_punct("!") {
            self.i += 1;
            return Ok(Expr::Unary("!", Box::new(self.unary()?)));
        }
        if self.at_word("NOT") {
            self.i += 1;
            return Ok(Expr::Unary("NOT", Box::new(self.unary()?)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, ParseError> {
        let mut e = self.primary()?;
        loop {
            if self.at_punct("[") {
                self.i += 1;
                let mut args = Vec::new();
                let outer = std::mem::replace(&mut self.no_concat, true);
                if !self.at_punct("]") {
                    loop {
                        let a = self.expr()?;
                        let arg = if self.at_punct(":") {
                            self.i += 1;
                            IndexArg::Range(a, self.expr()?)
                        } else if self.at_punct("+:") {
                            self.i += 1;
                            IndexArg::Width(a, self.expr()?)
                        } else {
                            IndexArg::One(a)
                        };
                        args.push(arg);
                        if self.at_punct(",") {
                            self.i += 1;
                            continue;
                        }
                        break;
                    }
                }
                self.no_concat = outer;
                self.expect_punct("]")?;
                e = Expr::Index(Box::new(e), args);
            } else if self.at_punct(".") {
                self.i += 1;
                let f = self.ident()?;
                e = match e {
                    // `AArch64.CheckFPAdvSIMDEnabled` is one qualified name.
                    Expr::Var(q) if self.at_punct("(") => Expr::Var(format!("{q}.{f}")),
                    other => Expr::Field(Box::new(other), f),
                };
            } else if self.at_punct("(") {
                let Expr::Var(name) = e else { return self.err("only named functions can be called") };
                self.i += 1;
                let outer = std::mem::replace(&mut self.no_concat, false);
                let mut args = Vec::new();
                if !self.at_punct(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.at_punct(",") {
                            self.i += 1;
                            continue;
                        }
                        break;
                    }
                }
                self.no_concat = outer;
                self.expect_punct(")")?;
                e = Expr::Call(name, args);
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        match self.peek().clone() {
            Tok::Num(n) => {
                self.i += 1;
                Ok(Expr::Num(n))
            }
            Tok::Bits(b) => {
                self.i += 1;
                Ok(Expr::Bits(b))
            }
            Tok::Ident(w) if w == "TRUE" || w == "FALSE" => {
                self.i += 1;
                Ok(Expr::Bool(w == "TRUE"))
            }
            Tok::Ident(w) if TYPE_WORDS.contains(&w.as_str()) && w != "bits" => self.err("unexpected type name"),
            Tok::Ident(w) => {
                self.i += 1;
                Ok(Expr::Var(w))
            }
            Tok::Punct("(") => {
                self.i += 1;
                let outer = std::mem::replace(&mut self.no_concat, false);
                let mut items = vec![self.tuple_item()?];
                while self.at_punct(",") {
                    self.i += 1;
                    items.push(self.tuple_item()?);
                }
                self.no_concat = outer;
                self.expect_punct(")")?;
                Ok(if items.len() == 1 { items.pop().expect("one") } else { Expr::Tuple(items) })
            }
            _ => self.err("expected an expression"),
        }
    }

    fn tuple_item(&mut self) -> Result<Expr, ParseError> {
        if self.at_punct("-") && matches!(self.peek_at(1), Tok::Punct("," | ")")) {
            self.i += 1;
            return Ok(Expr::Discard);
        }
        self.expr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn execute_body_parses() {
        let text = "    for e = 0 to elements-1\n        shift = SInt(Elem[operand2, e, esize][7:0]);\n        if rounding then\n            round_const = 1 << (-shift - 1); // note\n        if saturating then\n            (Elem[result, e, esize], sat) = SatQ(element, esize, unsigned);\n            if sat then FPSR.QC = '1';\n        else\n            Elem[result, e, esize] = element[esize-1:0];\n    V[d] = result;\n";
        let b = parse_block(text, 10).unwrap();
        assert_eq!(b.len(), 2);
        let StmtKind::For { body, .. } = &b[0].kind else { panic!() };
        assert_eq!(body.len(), 3);
        let StmtKind::If { otherwise, .. } = &body[2].kind else { panic!() };
        assert_eq!(otherwise.len(), 1);
        assert_eq!(b[1].span.line, 19);
    }

    #[test]
    fn decode_parses() {
        let text = "integer esize = 8 << UInt(size);\nif size:Q == '100' then UNDEFINED;\nReduceOp op = ReduceOp_ADD;\ncase comparison of\n    when CompareOp_GT test_passed = TRUE;\n    otherwise x = 1;\n";
        let b = parse_block(text, 1).unwrap();
        assert_eq!(b.len(), 4);
        assert!(matches!(&b[2].kind, StmtKind::Decl { ty: Type::Named(t), .. } if t == "ReduceOp"));
    }

    #[test]
    fn colon_in_brackets_is_a_range() {
        let e = parse_expr("x[esize-1:0]").unwrap();
        assert!(matches!(e, Expr::Index(_, ref a) if matches!(a[0], IndexArg::Range(..))));
        let e = parse_expr("UInt(H:L:M)").unwrap();
        assert!(matches!(e, Expr::Call(_, ref a) if matches!(a[0], Expr::Binary(":", ..))));
    }

    #[test]
    fn errors_are_located() {
        let e = parse_block("x = (1 + ;\n", 5).unwrap_err();
        assert_eq!(e.span.line, 5);
    }
}
