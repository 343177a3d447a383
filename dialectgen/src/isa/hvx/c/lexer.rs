//! Tokens of the C-like code in Qualcomm's instruction definitions and in
//! the manual's pseudocode.

use crate::sema::ir::Span;
use num_bigint::BigInt;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// An integer literal, its suffix (`LL`, `ULL`, `U`; uppercased) and
    /// whether it was written in hex or octal.
    Num(BigInt, String, bool),
    Punct(&'static str),
    /// A string literal (only inside debugging calls, which expand to nothing).
    Str(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

impl Token {
    pub fn is(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }
    pub fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "{s}"),
            Tok::Num(n, s, _) => write!(f, "{n}{s}"),
            Tok::Punct(p) => write!(f, "{p}"),
            Tok::Str(s) => write!(f, "{s:?}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
    "|=", "^=", "##", "(", ")", "[", "]", "{", "}", ",", ";", ":", "?", "=", "<", ">", "+", "-", "*", "/", "%", "!",
    "~", ".", "^", "&", "|", "#",
];

/// Tokenizes `text`; positions count lines and columns from 1. Comments
/// (`/* … */`, `// …`) are skipped.
pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut col) = (1u32, 1u32);
    let mut i = 0;
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for _ in 0..n {
            if chars[*i] == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let span = Span { line, col };
        if c.is_whitespace() || c == '\\' {
            advance(&mut i, &mut line, &mut col, 1);
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == '*' && chars[j + 1] == '/') {
                j += 1;
            }
            if j + 1 >= chars.len() {
                return Err(LexError { span, message: "unterminated comment".into() });
            }
            { let n = j + 2 - i; advance(&mut i, &mut line, &mut col, n); }
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                advance(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            if j >= chars.len() {
                return Err(LexError { span, message: "unterminated string".into() });
            }
            out.push(Token { tok: Tok::Str(chars[i + 1..j].iter().collect()), span });
            { let n = j + 1 - i; advance(&mut i, &mut line, &mut col, n); }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            out.push(Token { tok: Tok::Ident(chars[i..j].iter().collect()), span });
            { let n = j - i; advance(&mut i, &mut line, &mut col, n); }
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            if word.contains('_') {
                // `4_4`: a token pasted into a name by the vendor's macros.
                out.push(Token { tok: Tok::Ident(word), span });
                { let n = j - i; advance(&mut i, &mut line, &mut col, n); }
                continue;
            }
            let Some((n, suffix, radix)) = number(&word) else {
                return Err(LexError { span, message: format!("malformed number `{word}`") });
            };
            out.push(Token { tok: Tok::Num(n, suffix, radix), span });
            { let n = j - i; advance(&mut i, &mut line, &mut col, n); }
        } else if let Some(p) = PUNCTS.iter().find(|p| chars[i..].iter().take(p.len()).copied().eq(p.chars())) {
            out.push(Token { tok: Tok::Punct(p), span });
            advance(&mut i, &mut line, &mut col, p.len());
        } else {
            return Err(LexError { span, message: format!("unexpected character `{c}`") });
        }
    }
    Ok(out)
}

/// A C integer literal: decimal, hex (`0x`), octal (leading `0`), with an
/// optional `U`/`L`/`LL` suffix.
fn number(word: &str) -> Option<(BigInt, String, bool)> {
    let lower = word.to_ascii_lowercase();
    let digits_end = if lower.starts_with("0x") {
        2 + lower[2..].find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(lower.len() - 2)
    } else {
        lower.find(|c: char| !c.is_ascii_digit()).unwrap_or(lower.len())
    };
    let (digits, suffix) = lower.split_at(digits_end);
    if !suffix.chars().all(|c| c == 'u' || c == 'l') || suffix.len() > 3 {
        return None;
    }
    let value = if let Some(h) = digits.strip_prefix("0x") {
        BigInt::parse_bytes(h.as_bytes(), 16)?
    } else if digits.len() > 1 && digits.starts_with('0') {
        BigInt::parse_bytes(digits[1..].as_bytes(), 8)?
    } else {
        BigInt::parse_bytes(digits.as_bytes(), 10)?
    };
    Some((value, suffix.to_ascii_uppercase(), digits.len() > 1 && digits.starts_with('0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_operators() {
        let e = lex("x /* c */ @").unwrap_err();
        assert_eq!(e.span, Span { line: 1, col: 11 });
        let t = lex("a <<= 0x0ffLL + 017").unwrap();
        assert_eq!(t[1].tok, Tok::Punct("<<="));
        assert_eq!(t[2].tok, Tok::Num(255.into(), "LL".into(), true));
        assert_eq!(t[4].tok, Tok::Num(15.into(), String::new(), true));
        assert_eq!(t[4].span, Span { line: 1, col: 17 });
    }
}
