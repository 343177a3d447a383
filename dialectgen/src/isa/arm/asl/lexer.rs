//! Tokens of Arm's ASL, with the block structure its indentation gives.

use crate::sema::ir::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Num(num_bigint::BigInt),
    /// A bit-string literal such as `'01x1'` (spaces removed).
    Bits(String),
    Str(String),
    Punct(&'static str),
    Newline,
    Indent,
    Dedent,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

const PUNCTS: &[&str] = &[
    "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "+:", "++", "(", ")", "[", "]", "{", "}", ",", ";", ":", "=", "<",
    ">", "+", "-", "*", "/", "!", ".", "^", "&", "|",
];

/// Tokenizes `text`, whose first line is line `first_line` of its file.
pub fn lex(text: &str, first_line: u32) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    let mut indents = vec![0usize];
    let mut in_block_comment = false;
    for (k, raw) in text.lines().enumerate() {
        let line_no = first_line + k as u32;
        let mut line = raw.to_string();
        if in_block_comment {
            match line.find("*/") {
                Some(p) => {
                    line = " ".repeat(p + 2) + &line[p + 2..];
                    in_block_comment = false;
                }
                None => continue,
            }
        }
        let body_start = line.len() - line.trim_start().len();
        let rest = line[body_start..].to_string();
        if rest.is_empty() || rest.starts_with("//") {
            continue;
        }
        let indent = line[..body_start].chars().map(|c| if c == '\t' { 4 } else { 1 }).sum::<usize>();
        let span0 = Span { line: line_no, col: body_start as u32 + 1 };
        indentation(&mut indents, indent, span0, &mut out)?;
        let chars: Vec<char> = line.chars().collect();
        if line_tokens(&chars, body_start, line_no, &mut out)? {
            in_block_comment = true;
        }
        out.push(Token { tok: Tok::Newline, span: Span { line: line_no, col: chars.len() as u32 + 1 } });
    }
    let end = Span { line: first_line + text.lines().count() as u32, col: 1 };
    while indents.len() > 1 {
        indents.pop();
        out.push(Token { tok: Tok::Dedent, span: end });
    }
    out.push(Token { tok: Tok::Eof, span: end });
    Ok(out)
}

/// An `Indent` when a line starts deeper than the enclosing block, a
/// `Dedent` for every block it leaves; an error when it leaves to a depth
/// no enclosing block has.
fn indentation(indents: &mut Vec<usize>, indent: usize, span: Span, out: &mut Vec<Token>) -> Result<(), LexError> {
    if indent > *indents.last().unwrap_or(&0) {
        indents.push(indent);
        out.push(Token { tok: Tok::Indent, span });
    } else {
        while indent < *indents.last().unwrap_or(&0) {
            indents.pop();
            out.push(Token { tok: Tok::Dedent, span });
        }
        if indent != *indents.last().unwrap_or(&0) {
            return Err(LexError { span, message: "inconsistent indentation".into() });
        }
    }
    Ok(())
}

/// The tokens of one line from index `i` on; true when the line ends inside
/// a block comment.
fn line_tokens(chars: &[char], mut i: usize, line_no: u32, out: &mut Vec<Token>) -> Result<bool, LexError> {
    while i < chars.len() {
        let c = chars[i];
        let span = Span { line: line_no, col: i as u32 + 1 };
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let tail: String = chars[i + 2..].iter().collect();
            match tail.find("*/") {
                Some(p) => i += 2 + tail[..p].chars().count() + 2,
                None => return Ok(true),
            }
        } else {
            let (tok, next) = if c.is_ascii_alphabetic() || c == '_' {
                let mut j = i;
                while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                (Tok::Ident(chars[i..j].iter().collect()), j)
            } else if c.is_ascii_digit() {
                number(chars, i, span)?
            } else if c == '\'' {
                bit_string(chars, i, span)?
            } else if c == '"' {
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '"' {
                    j += 1;
                }
                (Tok::Str(chars[i + 1..j.min(chars.len())].iter().collect()), j + 1)
            } else {
                let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
                match PUNCTS.iter().find(|p| rest.starts_with(**p)) {
                    Some(p) => (Tok::Punct(p), i + p.len()),
                    None => return Err(LexError { span, message: format!("unexpected character `{c}`") }),
                }
            };
            out.push(Token { tok, span });
            i = next;
        }
    }
    Ok(false)
}

/// The number starting at `start` (decimal or `0x` hex, `_` separating digits)
/// and the index just past it.
fn number(chars: &[char], start: usize, span: Span) -> Result<(Tok, usize), LexError> {
    let mut i = start;
    if chars[i] == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
        i += 2;
        while i < chars.len() && (chars[i].is_ascii_hexdigit() || chars[i] == '_') {
            i += 1;
        }
        let digits: String = chars[start + 2..i].iter().filter(|c| **c != '_').collect();
        let v = num_bigint::BigInt::parse_bytes(digits.as_bytes(), 16)
            .ok_or_else(|| LexError { span, message: "bad hexadecimal literal".into() })?;
        Ok((Tok::Num(v), i))
    } else {
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
            i += 1;
        }
        let digits: String = chars[start..i].iter().filter(|c| **c != '_').collect();
        if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(LexError { span, message: "real literals are not supported".into() });
        }
        let v = digits.parse().map_err(|_| LexError { span, message: "bad number".into() })?;
        Ok((Tok::Num(v), i))
    }
}

/// The bit string (`'01x1'`, spaces dropped) starting at the quote at `i`,
/// and the index just past its closing quote.
fn bit_string(chars: &[char], i: usize, span: Span) -> Result<(Tok, usize), LexError> {
    let start = i + 1;
    let mut i = start;
    while i < chars.len() && chars[i] != '\'' {
        i += 1;
    }
    if i >= chars.len() {
        return Err(LexError { span, message: "unterminated bit string".into() });
    }
    let s: String = chars[start..i].iter().filter(|c| !c.is_whitespace()).collect();
    if !s.chars().all(|c| matches!(c, '0' | '1' | 'x')) {
        return Err(LexError { span, message: format!("bad bit string '{s}'") });
    }
    Ok((Tok::Bits(s), i + 1))
}
