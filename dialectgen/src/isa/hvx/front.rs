//! The HVX front end: every definition in scope through tokens, macro
//! expansion, parsing, operand binding, translation and type checking.
//! A fault names the instruction, the stage and the token's position in its
//! semantics; the other instructions go on.

use super::bind::{self, Binding};
use super::c::ast::CStmt;
use super::c::lexer::{lex, Token};
use super::c::macros::MacroTable;
use super::c::parser::parse_program;
use super::c::translate::{Arith, Translator};
use super::data::{self, Definition, HvxSources, InstrInfo};
use super::scope::{self, Exclusion};
use crate::sema::ir::{Semantics, Span};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// Why an instruction has no semantics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    pub tag: String,
    /// `lex`, `macro`, `parse`, `bind`, `translate` or `type`.
    pub stage: &'static str,
    /// Position in the semantics text (line:column), when there is one.
    pub at: Option<String>,
    /// The token at that position.
    pub token: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.tag)?;
        if let Some(at) = &self.at {
            write!(f, ":{at}")?;
        }
        write!(f, ": {}: {}", self.stage, self.message)?;
        if let Some(t) = &self.token {
            write!(f, " (at `{t}`)")?;
        }
        Ok(())
    }
}

/// A correction to one definition, found by execution.
#[derive(Clone, Debug, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DefinitionCorrection {
    pub tag: String,
    pub reason: String,
    /// The semantics text that replaces the definition's.
    pub semantics: String,
}

pub fn load_corrections(path: &std::path::Path) -> Result<Vec<DefinitionCorrection>, FrontEndError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| data::DataError::Io { path: path.display().to_string(), source })?;
    crate::yaml::parse(&text).map_err(|e| {
        FrontEndError::Data(data::DataError::Format { path: path.display().to_string(), message: e.to_string() })
    })
}

pub struct Translated {
    pub def: Definition,
    /// Whether a correction replaced the definition's semantics.
    pub corrected: bool,
    pub binding: Option<Binding>,
    pub result: Result<Semantics, Fault>,
    pub macros_used: Vec<String>,
}

pub struct FrontEnd {
    pub in_scope: Vec<Translated>,
    pub excluded: Vec<(String, Exclusion)>,
    pub info: BTreeMap<String, InstrInfo>,
    /// Every definition read (for the report's totals).
    pub total: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum FrontEndError {
    #[error(transparent)]
    Data(#[from] data::DataError),
    #[error(transparent)]
    Macros(#[from] super::c::macros::TableError),
}

/// The token of `text` at `span`, for diagnostics.
pub fn token_at(text: &str, span: Span) -> Option<String> {
    let toks = lex(text).ok()?;
    toks.iter().find(|t| t.span == span).map(|t| t.tok.to_string())
}

/// What a source's text needs between the stages of [`translate_reading`].
/// Qualcomm's definitions need nothing; the manual's pseudocode is read
/// with a few rewrites (see [`super::manual`]).
pub trait Reading {
    /// The tokens before macro expansion.
    fn lexed(&self, toks: Vec<Token>) -> Vec<Token> {
        toks
    }
    /// The tokens after macro expansion.
    fn expanded(&self, toks: Vec<Token>) -> Vec<Token> {
        toks
    }
    /// The parsed statements before translation.
    fn parsed(&self, _program: &mut Vec<CStmt>) {}
}

/// The text as written.
struct AsWritten;

impl Reading for AsWritten {}

/// Translates one definition's semantics with `binding`.
pub fn translate(
    tag: &str,
    text: &str,
    binding: &Binding,
    macros: &MacroTable,
    arith: Arith,
) -> (Result<Semantics, Fault>, Vec<String>) {
    translate_reading(tag, tag, text, binding, macros, arith, &AsWritten)
}

/// Translates `text` (the semantics of instruction `tag`) into semantics
/// named `name`: lexing, `reading`'s rewrites, macro expansion, parsing,
/// translation with `binding` and type checking. Also returns the macros
/// the text used.
pub fn translate_reading(
    tag: &str,
    name: &str,
    text: &str,
    binding: &Binding,
    macros: &MacroTable,
    arith: Arith,
    reading: &dyn Reading,
) -> (Result<Semantics, Fault>, Vec<String>) {
    let fault = |stage, span: Option<Span>, message: String| Fault {
        tag: tag.to_string(),
        stage,
        at: span.map(|s| s.to_string()),
        token: span.and_then(|s| token_at(text, s)),
        message,
    };
    let toks = match lex(text) {
        Ok(t) => reading.lexed(t),
        Err(e) => return (Err(fault("lex", Some(e.span), e.message)), Vec::new()),
    };
    let (expanded, used) = match macros.expand(&toks) {
        Ok((t, used)) => (reading.expanded(t), used),
        Err(e) => {
            return (
                Err(fault(
                    "macro",
                    Some(e.span()),
                    e.to_string().split_once(": ").map_or(e.to_string(), |(_, m)| m.to_string()),
                )),
                Vec::new(),
            )
        }
    };
    let program = match parse_program(&expanded) {
        Ok(mut p) => {
            reading.parsed(&mut p);
            p
        }
        Err(e) => return (Err(fault("parse", Some(e.span), e.message)), used),
    };
    let mut t = Translator::new(&binding.regs, arith);
    let body = match t.block(&program) {
        Ok(mut b) => {
            super::c::wraps::drop_idle_wraps(&mut b);
            crate::sema::order::order_commutative_operands(&mut b);
            b
        }
        Err(e) => return (Err(fault("translate", Some(e.span), e.message)), used),
    };
    let mut full = binding.prologue.clone();
    full.extend(body);
    let sema = Semantics {
        name: name.to_string(),
        args: binding.args.clone(),
        result: binding.result.clone(),
        functions: Vec::new(),
        body: full,
    };
    if let Err(e) = crate::eval::typing::infer_types(&sema) {
        // A span inside the text locates the fault; the binding's prologue has none.
        let span = Some(e.span()).filter(|s| s.line >= 1);
        let message = match span {
            Some(s) => e.to_string().strip_prefix(&format!("{s}: ")).map_or(e.to_string(), str::to_string),
            None => e.to_string(),
        };
        return (Err(fault("type", span, message)), used);
    }
    (Ok(sema), used)
}

/// Reads the definitions and translates every one in scope.
pub fn run(
    sources: &HvxSources,
    macros: &MacroTable,
    corrections: &[DefinitionCorrection],
) -> Result<FrontEnd, FrontEndError> {
    run_only(sources, macros, corrections, &|_| true)
}

/// [`run`] over the definitions `wanted` accepts (by tag); the others are
/// neither in scope nor excluded, and `total` counts the wanted ones.
pub fn run_only(
    sources: &HvxSources,
    macros: &MacroTable,
    corrections: &[DefinitionCorrection],
    wanted: &(dyn Fn(&str) -> bool + Sync),
) -> Result<FrontEnd, FrontEndError> {
    let mut defs = data::read_definitions(&sources.definitions)?;
    defs.retain(|d| wanted(&d.tag));
    let info = data::read_instr_info(&sources.instr_info)?;
    let total = defs.len();
    // Each definition apart, in parallel; the order stays the definitions'.
    let outcomes: Vec<Result<Translated, (String, Exclusion)>> = defs
        .into_par_iter()
        .map(|def| {
            let binding = match scoped(&def, &info)? {
                Ok(b) => b,
                Err(fault) => {
                    return Ok(Translated {
                        def,
                        corrected: false,
                        binding: None,
                        result: Err(fault),
                        macros_used: Vec::new(),
                    })
                }
            };
            let correction = corrections.iter().find(|c| c.tag == def.tag);
            let text = correction.map_or(def.semantics.as_str(), |c| c.semantics.as_str());
            let (result, macros_used) = translate(&def.tag, text, &binding, macros, Arith::C);
            let corrected = correction.is_some();
            Ok(Translated { def, corrected, binding: Some(binding), result, macros_used })
        })
        .collect();
    let mut in_scope = Vec::new();
    let mut excluded = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(t) => in_scope.push(t),
            Err(x) => excluded.push(x),
        }
    }
    Ok(FrontEnd { in_scope, excluded, info, total })
}

/// The definitions in scope whose operands bind, with their bindings, in
/// the definitions' order: what translation starts from, without translating.
pub fn bindings(sources: &HvxSources) -> Result<Vec<(Definition, Binding)>, FrontEndError> {
    let defs = data::read_definitions(&sources.definitions)?;
    let info = data::read_instr_info(&sources.instr_info)?;
    Ok(defs.into_iter().filter_map(|def| scoped(&def, &info).ok()?.ok().map(|b| (def, b))).collect())
}

/// A definition out of scope (`Err`, with the reason), or in scope with its
/// operands bound or the bind stage's fault.
fn scoped(def: &Definition, info: &BTreeMap<String, InstrInfo>) -> Result<Result<Binding, Fault>, (String, Exclusion)> {
    if let Some(x) = scope::exclusion(def, info.get(&def.tag)) {
        return Err((def.tag.clone(), x));
    }
    Ok(bind::bind(def, &info[&def.tag]).map_err(|e| Fault {
        tag: def.tag.clone(),
        stage: "bind",
        at: None,
        token: None,
        message: e.to_string(),
    }))
}
