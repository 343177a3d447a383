//! The shared pseudocode library (`arch.asl`): function definitions,
//! parsed on first use.

use super::ast::{Stmt, Type};
use super::parser::{parse_block, parse_expr, ParseError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub name: String,
    pub ret: Type,
    pub params: Vec<(Type, String)>,
    pub body: Vec<Stmt>,
    pub line: u32,
}

/// Where a definition's text is.
struct Source {
    header: String,
    body: String,
    line: u32,
}

/// A library definition that does not parse, with the library's path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}:{source}", path.display())]
pub struct DefinitionError {
    pub path: PathBuf,
    pub source: ParseError,
}

pub struct Library {
    pub path: PathBuf,
    sources: HashMap<String, Vec<Source>>,
    parsed: Mutex<HashMap<String, Result<Arc<FunctionDef>, DefinitionError>>>,
}

impl Library {
    /// Indexes the function definitions of `path` (a line at column 0
    /// ending in `)` followed by an indented body).
    pub fn read(path: &Path) -> std::io::Result<Library> {
        let text = std::fs::read_to_string(path)?;
        Ok(Library::from_text(&text, path))
    }

    pub fn empty() -> Library {
        Library { path: PathBuf::new(), sources: HashMap::new(), parsed: Mutex::new(HashMap::new()) }
    }

    pub fn from_text(text: &str, path: &Path) -> Library {
        let lines: Vec<&str> = text.lines().collect();
        let mut sources: HashMap<String, Vec<Source>> = HashMap::new();
        let mut k = 0;
        while k < lines.len() {
            let l = lines[k];
            let header = l.trim_end();
            let starts_flush = l.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            if starts_flush && header.ends_with(')') && !header.starts_with("//") {
                let mut end = k + 1;
                while end < lines.len()
                    && (lines[end].trim().is_empty() || lines[end].starts_with(' ') || lines[end].starts_with('\t'))
                {
                    end += 1;
                }
                if let Some(name) = function_name(header) {
                    let body = lines[k + 1..end].join("\n");
                    sources.entry(name).or_default().push(Source {
                        header: header.to_string(),
                        body,
                        line: k as u32 + 2,
                    });
                }
                k = end;
                continue;
            }
            k += 1;
        }
        Library { path: path.to_path_buf(), sources, parsed: Mutex::new(HashMap::new()) }
    }

    /// The first definition of `name`, parsed; `None` when there is none.
    pub fn function(&self, name: &str) -> Result<Option<Arc<FunctionDef>>, DefinitionError> {
        if let Some(r) = self.parsed.lock().expect("library lock").get(name) {
            return r.clone().map(Some);
        }
        let Some(src) = self.sources.get(name).and_then(|v| v.first()) else { return Ok(None) };
        let r = parse_definition(name, src)
            .map(Arc::new)
            .map_err(|source| DefinitionError { path: self.path.clone(), source });
        self.parsed.lock().expect("library lock").insert(name.to_string(), r.clone());
        r.map(Some)
    }
}

/// The `(` opening the parameter list: the one matching the final `)`.
fn params_open(header: &str) -> Option<usize> {
    let mut depth = 0;
    for (k, c) in header.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

fn function_name(header: &str) -> Option<String> {
    let open = params_open(header)?;
    let before = header[..open].trim_end();
    let name: String =
        before.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.').collect();
    let name: String = name.chars().rev().collect();
    let ret = before[..before.len() - name.len()].trim();
    (!name.is_empty() && !ret.is_empty() && !ret.contains('=')).then_some(name)
}

fn parse_type(t: &str) -> Result<Type, ParseError> {
    let t = t.trim();
    Ok(match t {
        "integer" => Type::Integer,
        "boolean" => Type::Boolean,
        "bit" => Type::Bit,
        _ if t.starts_with("bits(") && t.ends_with(')') => Type::Bits(parse_expr(&t[5..t.len() - 1])?),
        _ => Type::Named(t.to_string()),
    })
}

fn parse_definition(name: &str, src: &Source) -> Result<FunctionDef, ParseError> {
    let open = params_open(&src.header).unwrap_or(0);
    let before = src.header[..open].trim_end();
    let ret = parse_type(&before[..before.len() - name.len()])?;
    let inside = &src.header[open + 1..src.header.len() - 1];
    let mut params = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in inside.chars().chain(std::iter::once(',')) {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            let p = cur.trim();
            if !p.is_empty() {
                let (ty, n) = p.rsplit_once(' ').unwrap_or(("", p));
                params.push((parse_type(ty)?, n.trim().to_string()));
            }
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    let body = parse_block(&src.body, src.line)?;
    Ok(FunctionDef { name: name.to_string(), ret, params, body, line: src.line })
}
