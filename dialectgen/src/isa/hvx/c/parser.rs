//! A recursive-descent parser for the C subset: blocks, declarations,
//! `if`, `for`, `do … while (0)`, and expressions with C's precedence,
//! casts, lane views (`Vu.h[i]`) and the manual's bit ranges (`Q[hi:lo]`).

use super::ast::{CBinary, CExpr, CExprKind, CStmt, CStmtKind, CUnary};
use super::ctype::CType;
use super::lexer::{Tok, Token};
use crate::sema::ir::Span;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

type P<T> = Result<T, ParseError>;

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
}

/// Parses a whole program: a sequence of statements.
pub fn parse_program(toks: &[Token]) -> P<Vec<CStmt>> {
    let mut p = Parser { toks, pos: 0 };
    let mut out = Vec::new();
    while p.pos < toks.len() {
        out.push(p.stmt()?);
    }
    Ok(out)
}

/// Parses one expression that must use every token.
pub fn parse_expr(toks: &[Token]) -> P<CExpr> {
    let mut p = Parser { toks, pos: 0 };
    let e = p.expr()?;
    if p.pos < toks.len() {
        return p.fail(format!("unexpected `{}` after the expression", toks[p.pos].tok));
    }
    Ok(e)
}

const BINARY_LEVELS: &[&[(&str, CBinary)]] = &[
    &[("||", CBinary::Or)],
    &[("&&", CBinary::And)],
    &[("|", CBinary::BitOr)],
    &[("^", CBinary::BitXor)],
    &[("&", CBinary::BitAnd)],
    &[("==", CBinary::Eq), ("!=", CBinary::Ne)],
    &[("<", CBinary::Lt), ("<=", CBinary::Le), (">", CBinary::Gt), (">=", CBinary::Ge)],
    &[("<<", CBinary::Shl), (">>", CBinary::Shr)],
    &[("+", CBinary::Add), ("-", CBinary::Sub)],
    &[("*", CBinary::Mul), ("/", CBinary::Div), ("%", CBinary::Rem)],
];

const COMPOUND: &[(&str, Option<CBinary>)] = &[
    ("=", None),
    ("+=", Some(CBinary::Add)),
    ("-=", Some(CBinary::Sub)),
    ("*=", Some(CBinary::Mul)),
    ("/=", Some(CBinary::Div)),
    ("%=", Some(CBinary::Rem)),
    ("&=", Some(CBinary::BitAnd)),
    ("|=", Some(CBinary::BitOr)),
    ("^=", Some(CBinary::BitXor)),
    ("<<=", Some(CBinary::Shl)),
    (">>=", Some(CBinary::Shr)),
];

impl Parser<'_> {
    fn span(&self) -> Span {
        self.toks.get(self.pos).or(self.toks.last()).map(|t| t.span).unwrap_or_default()
    }

    fn fail<T>(&self, message: impl Into<String>) -> P<T> {
        Err(ParseError { span: self.span(), message: message.into() })
    }

    fn peek_is(&self, p: &str) -> bool {
        self.toks.get(self.pos).is_some_and(|t| t.is(p))
    }

    fn peek_ident(&self, k: usize) -> Option<&str> {
        self.toks.get(self.pos + k).and_then(Token::ident)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.peek_is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> P<()> {
        if self.eat(p) {
            return Ok(());
        }
        match self.toks.get(self.pos) {
            Some(t) => self.fail(format!("expected `{p}`, found `{}`", t.tok)),
            None => self.fail(format!("expected `{p}` at the end")),
        }
    }

    fn ident(&mut self) -> P<String> {
        match self.peek_ident(0) {
            Some(s) => {
                let s = s.to_string();
                self.pos += 1;
                Ok(s)
            }
            None => self.fail("expected a name"),
        }
    }

    /// A type name at the cursor (without consuming it): its words.
    fn type_words(&self, from: usize) -> Option<(CType, usize)> {
        let mut words = Vec::new();
        let mut k = from;
        while let Some(w) = self.toks.get(k).and_then(Token::ident) {
            if !CType::is_type_word(w) {
                break;
            }
            words.push(w);
            k += 1;
        }
        if words.is_empty() {
            return None;
        }
        CType::from_words(&words).map(|t| (t, k - from))
    }

    pub fn stmt(&mut self) -> P<CStmt> {
        let span = self.span();
        let kind = if self.eat("{") {
            let mut body = Vec::new();
            while !self.eat("}") {
                if self.pos >= self.toks.len() {
                    return self.fail("unclosed `{`");
                }
                body.push(self.stmt()?);
            }
            CStmtKind::Block(body)
        } else if self.eat(";") {
            CStmtKind::Empty
        } else if self.peek_ident(0) == Some("if") {
            self.pos += 1;
            self.expect("(")?;
            let cond = self.expr()?;
            self.expect(")")?;
            let then = Box::new(self.stmt()?);
            let otherwise = if self.peek_ident(0) == Some("else") {
                self.pos += 1;
                Some(Box::new(self.stmt()?))
            } else {
                None
            };
            CStmtKind::If(cond, then, otherwise)
        } else if self.peek_ident(0) == Some("for") {
            self.pos += 1;
            self.expect("(")?;
            let init = if self.peek_is(";") { None } else { Some(Box::new(self.simple_stmt()?)) };
            self.expect(";")?;
            let cond = if self.peek_is(";") { None } else { Some(self.expr()?) };
            self.expect(";")?;
            let step = if self.peek_is(")") { None } else { Some(self.expr()?) };
            self.expect(")")?;
            let body = Box::new(self.stmt()?);
            CStmtKind::For { init, cond, step, body }
        } else if self.peek_ident(0) == Some("do") {
            // `do body while (0);`: the body once.
            self.pos += 1;
            let body = self.stmt()?;
            if self.ident()? != "while" {
                return self.fail("expected `while` after a `do` body");
            }
            self.expect("(")?;
            let cond = self.expr()?;
            if !matches!(&cond.kind, CExprKind::Int(v, _) if *v == 0.into()) {
                return Err(ParseError { span: cond.span, message: "only `do … while (0)` is supported".into() });
            }
            self.expect(")")?;
            self.expect(";")?;
            body.kind
        } else {
            let s = self.simple_stmt()?;
            self.expect(";")?;
            s.kind
        };
        Ok(CStmt { span, kind })
    }

    /// A declaration (possibly of several names) or an expression.
    fn simple_stmt(&mut self) -> P<CStmt> {
        let span = self.span();
        let reg_width = match self.peek_ident(0) {
            Some("mmvector_t") => Some(1024),
            Some("mmvector_pair_t") => Some(2048),
            Some("mmqreg_t") => Some(128),
            _ => None,
        };
        if let (Some(w), Some(name)) = (reg_width, self.peek_ident(1).map(str::to_string)) {
            self.pos += 2;
            return Ok(CStmt { span, kind: CStmtKind::RegDecl(w, name) });
        }
        if let Some((ty, n)) = self.type_words(self.pos) {
            if self.peek_ident(n).is_some() {
                self.pos += n;
                let mut decls = Vec::new();
                loop {
                    let dspan = self.span();
                    let name = self.ident()?;
                    let init = if self.eat("=") { Some(self.assignment()?) } else { None };
                    decls.push(CStmt { span: dspan, kind: CStmtKind::Decl(ty, name, init) });
                    if !self.eat(",") {
                        break;
                    }
                }
                let kind = if decls.len() == 1 { decls.pop().expect("one").kind } else { CStmtKind::Block(decls) };
                return Ok(CStmt { span, kind });
            }
        }
        Ok(CStmt { span, kind: CStmtKind::Expr(self.expr()?) })
    }

    pub fn expr(&mut self) -> P<CExpr> {
        let mut e = self.assignment()?;
        while self.peek_is(",") {
            // The comma operator appears only in `for` steps; keep the last.
            self.pos += 1;
            e = self.assignment()?;
        }
        Ok(e)
    }

    fn assignment(&mut self) -> P<CExpr> {
        let span = self.span();
        let lhs = self.ternary()?;
        for (p, op) in COMPOUND {
            if self.eat(p) {
                let rhs = self.assignment()?;
                return Ok(CExpr { span, kind: CExprKind::Assign(*op, Box::new(lhs), Box::new(rhs)) });
            }
        }
        Ok(lhs)
    }

    fn ternary(&mut self) -> P<CExpr> {
        let span = self.span();
        let cond = self.binary(0)?;
        if !self.eat("?") {
            return Ok(cond);
        }
        let then = self.expr()?;
        self.expect(":")?;
        let otherwise = self.ternary()?;
        Ok(CExpr { span, kind: CExprKind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)) })
    }

    fn binary(&mut self, level: usize) -> P<CExpr> {
        if level == BINARY_LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        'outer: loop {
            for (p, op) in BINARY_LEVELS[level] {
                if self.peek_is(p) {
                    let span = self.span();
                    self.pos += 1;
                    let rhs = self.binary(level + 1)?;
                    lhs = CExpr { span, kind: CExprKind::Binary(*op, Box::new(lhs), Box::new(rhs)) };
                    continue 'outer;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> P<CExpr> {
        let span = self.span();
        for (p, op) in [("-", CUnary::Neg), ("+", CUnary::Plus), ("~", CUnary::BitNot), ("!", CUnary::Not)] {
            if self.eat(p) {
                let arg = self.unary()?;
                return Ok(CExpr { span, kind: CExprKind::Unary(op, Box::new(arg)) });
            }
        }
        if self.peek_is("(") {
            if let Some((ty, n)) = self.type_words(self.pos + 1) {
                if self.toks.get(self.pos + 1 + n).is_some_and(|t| t.is(")")) {
                    self.pos += n + 2;
                    let arg = self.unary()?;
                    return Ok(CExpr { span, kind: CExprKind::Cast(ty, Box::new(arg)) });
                }
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> P<CExpr> {
        let mut e = self.primary()?;
        loop {
            let span = self.span();
            if self.eat(".") {
                let field = self.ident()?;
                e = CExpr { span, kind: CExprKind::Member(Box::new(e), field) };
            } else if self.eat("[") {
                let index = self.expr()?;
                if self.eat(":") {
                    let lo = self.expr()?;
                    self.expect("]")?;
                    e = CExpr { span, kind: CExprKind::BitRange(Box::new(e), Box::new(index), Box::new(lo)) };
                } else {
                    self.expect("]")?;
                    e = CExpr { span, kind: CExprKind::Index(Box::new(e), Box::new(index)) };
                }
            } else if self.peek_is("++") || self.peek_is("--") {
                let by = if self.eat("++") { 1 } else { self.pos += 1; -1 };
                e = CExpr { span, kind: CExprKind::Step(Box::new(e), by) };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> P<CExpr> {
        let span = self.span();
        let Some(t) = self.toks.get(self.pos) else {
            return self.fail("expected an expression at the end");
        };
        match &t.tok {
            Tok::Num(v, suffix, radix) => {
                self.pos += 1;
                let ty = CType::of_literal(v, suffix, *radix);
                Ok(CExpr { span, kind: CExprKind::Int(v.clone(), ty) })
            }
            Tok::Ident(name) => {
                let name = name.clone();
                self.pos += 1;
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.assignment()?);
                            if self.eat(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    return Ok(CExpr { span, kind: CExprKind::Call(name, args) });
                }
                Ok(CExpr { span, kind: CExprKind::Name(name) })
            }
            Tok::Punct("(") => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Tok::Punct("#") => {
                // The manual's immediate operand, `#u`.
                self.pos += 1;
                let name = self.ident()?;
                Ok(CExpr { span, kind: CExprKind::Name(format!("#{name}")) })
            }
            other => self.fail(format!("expected an expression, found `{other}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    #[test]
    fn precedence_casts_and_loops() {
        let p = parse_program(&lex("for (int i = 0; i < 8; i += 2) { VdV.h[i] = (short)a + b * c >> 1; }").unwrap())
            .unwrap();
        let CStmtKind::For { body, step, .. } = &p[0].kind else { panic!("{p:?}") };
        assert!(matches!(step.as_ref().unwrap().kind, CExprKind::Assign(Some(CBinary::Add), ..)));
        let CStmtKind::Block(b) = &body.kind else { panic!() };
        let CStmtKind::Expr(CExpr { kind: CExprKind::Assign(None, _, rhs), .. }) = &b[0].kind else { panic!() };
        let CExprKind::Binary(CBinary::Shr, l, _) = &rhs.kind else { panic!("{rhs:?}") };
        let CExprKind::Binary(CBinary::Add, c, _) = &l.kind else { panic!() };
        assert!(matches!(c.kind, CExprKind::Cast(CType { width: 16, signed: true }, _)));
    }

    #[test]
    fn errors_point_at_the_token() {
        let e = parse_program(&lex("x = (a + ;").unwrap()).unwrap_err();
        assert_eq!(e.span, Span { line: 1, col: 10 });
    }
}
