//! The meaning of the vendor's helper macros, and their expansion.
//!
//! Qualcomm's definitions call helper macros (`fVSATB`, `fMPY8US`, …) whose
//! `DEF_MACRO` records carry a body but no parameter names. The project
//! writes each macro's meaning once, in `isa-specs/hvx/macros.yaml`: its
//! parameters and a body in the same C subset, which may call the semantics
//! IR's built-ins (`Saturate(x, 8)`, `CountLeadingZeros(x)`, …). Expansion
//! works on tokens as the C preprocessor does: arguments are substituted
//! unparenthesized and the result is rescanned.

use super::lexer::{lex, Tok, Token};
use crate::sema::ir::Span;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MacroDef {
    /// Parameter names; `["..."]` takes any arguments and uses none.
    #[serde(default)]
    pub params: Vec<String>,
    /// The replacement, in the C subset (empty: the macro expands to nothing).
    #[serde(default)]
    pub body: String,
    /// What the macro means, in a sentence, for review.
    #[serde(default)]
    pub doc: String,
}

/// A macro table: name → definition, with each body already tokenized.
#[derive(Clone, Debug, Default)]
pub struct MacroTable {
    defs: BTreeMap<String, (MacroDef, Vec<Token>)>,
    /// Identifiers that must be macros (e.g. `f[A-Z]…` for Qualcomm's code):
    /// a call of one missing from the table is an error, not a function.
    pub reserved_prefix: Option<String>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MacroError {
    #[error("{span}: unknown macro `{name}`")]
    Unknown { span: Span, name: String },
    #[error("{span}: macro `{name}` takes {expected} arguments, got {got}")]
    Arity { span: Span, name: String, expected: usize, got: usize },
    #[error("{span}: macro `{name}`: {message}")]
    Malformed { span: Span, name: String, message: String },
}

impl MacroError {
    pub fn span(&self) -> Span {
        match self {
            MacroError::Unknown { span, .. } | MacroError::Arity { span, .. } | MacroError::Malformed { span, .. } => {
                *span
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{path}: {source}")]
    Yaml { path: String, source: crate::yaml::YamlError },
    #[error("{path}: {0}", path = .1)]
    Io(std::io::Error, String),
    #[error("{path}:{line}: macro `{name}`: body does not tokenize: {message}")]
    Body { path: String, line: usize, name: String, message: String },
}

const EXPANSION_LIMIT: usize = 100_000;

/// The 1-based line where `name` is defined at the top level of `yaml`
/// (1 when it cannot be found, as for a key written in flow style).
fn definition_line(yaml: &str, name: &str) -> usize {
    yaml.lines()
        .position(|l| l.strip_prefix(name).is_some_and(|rest| rest.trim_start().starts_with(':')))
        .map_or(1, |k| k + 1)
}

impl MacroTable {
    pub fn parse(yaml: &str, path: &str, reserved_prefix: Option<&str>) -> Result<MacroTable, TableError> {
        let raw: BTreeMap<String, MacroDef> =
            crate::yaml::parse(yaml).map_err(|source| TableError::Yaml { path: path.to_string(), source })?;
        let mut defs = BTreeMap::new();
        for (name, def) in raw {
            let toks = lex(&def.body).map_err(|e| TableError::Body {
                path: path.to_string(),
                line: definition_line(yaml, &name),
                name: name.clone(),
                message: e.to_string(),
            })?;
            defs.insert(name, (def, toks));
        }
        Ok(MacroTable { defs, reserved_prefix: reserved_prefix.map(str::to_string) })
    }

    pub fn load(path: &std::path::Path, reserved_prefix: Option<&str>) -> Result<MacroTable, TableError> {
        let text = std::fs::read_to_string(path).map_err(|e| TableError::Io(e, path.display().to_string()))?;
        Self::parse(&text, &path.display().to_string(), reserved_prefix)
    }

    pub fn get(&self, name: &str) -> Option<&MacroDef> {
        self.defs.get(name).map(|(d, _)| d)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.defs.keys().map(String::as_str)
    }

    fn is_reserved(&self, name: &str) -> bool {
        self.reserved_prefix.as_deref().is_some_and(|p| {
            name.len() > p.len()
                && name.starts_with(p)
                && name[p.len()..].chars().next().is_some_and(|c| c.is_ascii_uppercase())
        })
    }

    /// Expands every macro call in `tokens`; also returns the names used.
    pub fn expand(&self, tokens: &[Token]) -> Result<(Vec<Token>, Vec<String>), MacroError> {
        let mut used = Vec::new();
        let mut pending: Vec<Token> = tokens.iter().rev().cloned().collect();
        let mut out = Vec::with_capacity(tokens.len());
        let mut steps = 0usize;
        while let Some(t) = pending.pop() {
            let name = match &t.tok {
                Tok::Ident(n) if self.defs.contains_key(n) || self.is_reserved(n) => n.clone(),
                _ => {
                    out.push(t);
                    continue;
                }
            };
            let Some((def, body)) = self.defs.get(&name) else {
                return Err(MacroError::Unknown { span: t.span, name });
            };
            steps += 1;
            if steps > EXPANSION_LIMIT {
                return Err(MacroError::Malformed {
                    span: t.span,
                    name,
                    message: "expansion does not terminate".into(),
                });
            }
            if !pending.last().is_some_and(|n| n.is("(")) {
                return Err(MacroError::Malformed { span: t.span, name, message: "expected `(` after the name".into() });
            }
            pending.pop();
            let args = take_args(&mut pending, t.span, &name)?;
            let got = if def.params.is_empty() && args.len() == 1 && args[0].is_empty() { 0 } else { args.len() };
            let variadic = def.params.len() == 1 && def.params[0] == "...";
            if got != def.params.len() && !variadic {
                return Err(MacroError::Arity { span: t.span, name, expected: def.params.len(), got });
            }
            if !used.contains(&name) {
                used.push(name.clone());
            }
            let mut replacement = Vec::with_capacity(body.len());
            for b in body {
                match b.ident().and_then(|id| def.params.iter().position(|p| p == id)) {
                    Some(k) => replacement.extend(args[k].iter().cloned()),
                    None => replacement.push(Token { tok: b.tok.clone(), span: t.span }),
                }
            }
            pending.extend(replacement.into_iter().rev());
        }
        Ok((out, used))
    }
}

/// The comma-separated arguments up to the matching `)`.
fn take_args(pending: &mut Vec<Token>, span: Span, name: &str) -> Result<Vec<Vec<Token>>, MacroError> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    loop {
        let Some(t) = pending.pop() else {
            return Err(MacroError::Malformed { span, name: name.to_string(), message: "unclosed `(`".into() });
        };
        if t.is("(") || t.is("[") || t.is("{") {
            depth += 1;
        } else if t.is(")") || t.is("]") || t.is("}") {
            if depth == 0 {
                return Ok(args);
            }
            depth -= 1;
        } else if t.is(",") && depth == 0 {
            args.push(Vec::new());
            continue;
        }
        args.last_mut().expect("one argument").push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(toks: &[Token]) -> String {
        toks.iter().map(|t| t.tok.to_string()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn expands_nested_calls_and_reports_unknown_ones() {
        let table = MacroTable::parse(
            "fTWICE: {params: [X], body: '((X) * 2)'}\nfHIDE: {params: [A], body: 'A'}\nfN: {body: '7'}",
            "t.yaml",
            Some("f"),
        )
        .unwrap();
        let arity = table.expand(&lex("y = fTWICE(a, b);").unwrap());
        assert!(matches!(arity, Err(MacroError::Arity { expected: 1, got: 2, .. })), "{arity:?}");
        let (out, used) = table.expand(&lex("fHIDE(int i;) y = fTWICE(fTWICE(a) + fN());").unwrap()).unwrap();
        assert_eq!(show(&out), "int i ; y = ( ( ( ( a ) * 2 ) + 7 ) * 2 ) ;");
        assert_eq!(used, ["fHIDE", "fTWICE", "fN"]);
        let e = table.expand(&lex("x = fNOPE(1);").unwrap()).unwrap_err();
        assert_eq!(e, MacroError::Unknown { span: Span { line: 1, col: 5 }, name: "fNOPE".into() });
    }

}
