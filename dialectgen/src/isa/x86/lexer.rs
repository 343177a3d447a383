//! Tokens of Intel's pseudocode.
//!
//! Newlines end statements, so they are tokens; a backslash at the end of a
//! line continues it, and `//` starts a comment.

use crate::sema::ir::Span;
use num_bigint::BigInt;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Num(BigInt),
    /// Punctuation and operators, e.g. `:=`, `>>`, `[`.
    Sym(&'static str),
    Newline,
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[error("{span}: {message}")]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

const SYMBOLS: &[&str] = &[
    ">>=", "<<=", ":=", "+=", "-=", "|=", "&=", "^=", "==", "!=", "<>", "<=", ">=", "<<", ">>", "&&", "||", "+", "-",
    "*", "/", "%", "&", "|", "^", "~", "!", "?", ":", "(", ")", "[", "]", "{", "}", ",", ".", "<", ">", "=", ";",
];

pub fn tokenize(src: &str) -> Result<Vec<Token>, LexError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out: Vec<Token> = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    while i < chars.len() {
        let c = chars[i];
        let span = Span { line, col };
        if c == '\n' {
            if !matches!(out.last().map(|t| &t.tok), Some(Tok::Newline) | None) {
                out.push(Token { tok: Tok::Newline, span });
            }
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c == '\\' {
            let Some(next) = continuation_end(&chars, i) else {
                return Err(LexError { span, message: "stray `\\`".into() });
            };
            i = next;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let (tok, j) = if c.is_ascii_digit() {
            let (value, j) = number(&chars, i, span)?;
            (Tok::Num(value), j)
        } else if c.is_alphabetic() || c == '_' {
            let j = ident_end(&chars, i);
            (Tok::Ident(chars[i..j].iter().collect()), j)
        } else {
            let rest: String = chars[i..(i + 3).min(chars.len())].iter().collect();
            match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
                Some(s) => (Tok::Sym(s), i + s.len()),
                None => return Err(LexError { span, message: format!("unexpected character `{c}`") }),
            }
        };
        out.push(Token { tok, span });
        col += (j - i) as u32;
        i = j;
    }
    out.push(Token { tok: Tok::Newline, span: Span { line, col } });
    out.push(Token { tok: Tok::Eof, span: Span { line, col } });
    Ok(out)
}

/// Where a line continuation (a backslash at `i`, then only whitespace up to
/// the newline) ends: just past the newline; `None` for a stray backslash.
fn continuation_end(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < chars.len() && chars[j] != '\n' && chars[j].is_whitespace() {
        j += 1;
    }
    (j < chars.len() && chars[j] == '\n').then_some(j + 1)
}

/// The number starting at `i` (decimal, `0x` hex or `0b` binary) and the
/// index just past it.
fn number(chars: &[char], i: usize, span: Span) -> Result<(BigInt, usize), LexError> {
    let c = chars[i];
    let (radix, digits_start) = if c == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
        (16, i + 2)
    } else if c == '0'
        && matches!(chars.get(i + 1), Some('b' | 'B'))
        && chars.get(i + 2).is_some_and(|d| *d == '0' || *d == '1')
    {
        (2, i + 2)
    } else {
        (10, i)
    };
    let mut j = digits_start;
    while j < chars.len() && chars[j].is_digit(radix) {
        j += 1;
    }
    let text: String = chars[digits_start..j].iter().collect();
    let value = BigInt::parse_bytes(text.as_bytes(), radix).ok_or_else(|| LexError {
        span,
        message: format!("bad number `{}`", chars[i..j].iter().collect::<String>()),
    })?;
    Ok((value, j))
}

/// The index just past the identifier starting at `i`.
fn ident_end(chars: &[char], i: usize) -> usize {
    let mut j = i;
    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_and_comments() {
        let toks = tokenize("a := 1 + \\\n 0x1F // note\nb").unwrap();
        let kinds: Vec<_> = toks.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(kinds[0], Tok::Ident("a".into()));
        assert_eq!(kinds[4], Tok::Num(BigInt::from(31)));
        assert_eq!(kinds[5], Tok::Newline);
        assert_eq!(toks[6].span.line, 3);
    }

    #[test]
    fn reports_bad_character() {
        let err = tokenize("a := $").unwrap_err();
        assert_eq!(err.span, Span { line: 1, col: 6 });
    }
}
