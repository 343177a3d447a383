//! The cross-check of the HVX semantics against the manual's pseudocode.
//!
//! Hydride extracted the pseudocode of the Hexagon V66 HVX Programmer's
//! Reference Manual (`HVXInsts.json`). Each entry whose instruction has
//! QEMU-derived semantics is read here as mathematics ([`Arith::Exact`]),
//! with the same arguments and result as the QEMU semantics, and compared
//! with them: first on concrete edge and pseudo-random inputs (a difference
//! there is a disagreement, with its witness), then with Z3 under a budget.
//!
//! The manual's text needs a few readings the QEMU definitions do not:
//! - register names without the trailing `V` (`Vu`, `Rt`, `#u`), while
//!   predicates keep it (`QvV`);
//! - object-like names (`VWIDTH`), called as `VWIDTH()` before expansion;
//! - `Q[e]`, one bit of a predicate, read as the bit range `Q[e:e]`;
//! - scratch variables assigned without a declaration (`accum`, `idx`),
//!   declared as 64-bit signed locals;
//! - registers written as scratch (`Vu.ub[k] = …` in `vdelta`), allowed.
//!
//! A disagreement is checked against `isa-specs/hvx/corrections.yaml`:
//! when QEMU's execution is the reference, the record says which source is
//! wrong and why; an unrecorded disagreement is reported as such.

use super::bind::Binding;
use super::c::ast::{CExpr, CExprKind, CStmt, CStmtKind};
use super::c::ctype::LLONG;
use super::c::lexer::{Tok, Token};
use super::c::macros::{MacroTable, TableError};
use super::c::translate::{Arith, RegBinding};
use super::data::ManualEntry;
use super::front::{self, Fault, FrontEnd, Reading};
use crate::classify::proof::{prove_equal_then_by_slices, Budget, Verdict};
use crate::eval::{Concrete, EvalError, Machine};
use crate::sema::ir::{BinOp, Expr, Place, Semantics, Span, Stmt, StmtKind};
use crate::validate::cases::Rng;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// How many concrete inputs each entry is evaluated on before Z3.
pub const CONCRETE_CASES: usize = 32;

/// Loads the manual's macro table (`isa-specs/hvx/manual-macros.yaml`).
pub fn manual_macros(path: &Path) -> Result<MacroTable, TableError> {
    MacroTable::load(path, None)
}

/// One record of `corrections.yaml`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    pub tag: String,
    /// The source found wrong: `manual` or `qemu`.
    pub source: String,
    /// The source execution sides with.
    pub sides_with: String,
    pub reason: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CorrectionsError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
}

/// Reads `corrections.yaml`; a missing file is an empty list.
pub fn read_corrections(path: &Path) -> Result<Vec<Correction>, CorrectionsError> {
    let fail = |message: String| CorrectionsError::Read { path: path.display().to_string(), message };
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    let list: Option<Vec<Correction>> = crate::yaml::parse(&text).map_err(|e| fail(e.to_string()))?;
    Ok(list.unwrap_or_default())
}

/// One input on which the two semantics differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Witness {
    /// Each argument as hex (most significant digit first), in order.
    pub inputs: Vec<(String, String)>,
    /// The first differing 32-bit word of the result (bits `32w+31 … 32w`).
    pub word: u32,
    pub qemu: String,
    pub manual: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum ManualVerdict {
    /// Equal: by Z3 (`z3`), after agreeing on every concrete input.
    Agreed {
        by: String,
    },
    Disagreed {
        /// A differing input, when one was evaluated (Z3 gives none here).
        witness: Option<Witness>,
        summary: String,
        /// Whether `corrections.yaml` records it.
        recorded: bool,
        /// The recorded reason.
        #[serde(skip_serializing_if = "Option::is_none")]
        correction: Option<String>,
    },
    Unknown {
        reason: String,
    },
    /// The manual's text does not lex, expand, parse or translate.
    Unparsed {
        fault: Fault,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct EntryReport {
    pub tag: String,
    pub intrinsic: String,
    #[serde(flatten)]
    pub verdict: ManualVerdict,
}

/// The cross-check's report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CrossCheck {
    pub budget_ms: u32,
    pub concrete_cases: usize,
    pub agreed: usize,
    pub disagreed: usize,
    /// Disagreements `corrections.yaml` does not record.
    pub unrecorded: usize,
    pub unknown: usize,
    pub unparsed: usize,
    /// Manual entries with no QEMU semantics to compare with.
    pub no_qemu: Vec<String>,
    /// Corrections recorded for entries that do not (or no longer) disagree.
    pub stale_corrections: Vec<String>,
    pub entries: Vec<EntryReport>,
}

impl CrossCheck {
    pub fn disagreements(&self) -> impl Iterator<Item = &EntryReport> {
        self.entries.iter().filter(|e| matches!(e.verdict, ManualVerdict::Disagreed { .. }))
    }
}

/// The QEMU binding with the manual's spellings of the register names added.
pub fn manual_binding(binding: &Binding) -> Binding {
    let mut b = binding.clone();
    let mut regs: BTreeMap<String, RegBinding> = BTreeMap::new();
    for (name, r) in &binding.regs {
        // The manual uses registers as scratch (`vdelta` rewrites `Vu`).
        let r = RegBinding { writable: true, ..r.clone() };
        let alias = match name.as_str() {
            "uiV" => Some("#u".to_string()),
            "siV" => Some("#s".to_string()),
            n if n.starts_with('Q') => Some(n.trim_end_matches('V').to_string()),
            n => n.strip_suffix('V').map(str::to_string),
        };
        if let Some(a) = alias {
            regs.entry(a).or_insert_with(|| r.clone());
        }
        regs.insert(name.clone(), r);
    }
    b.regs = regs;
    b
}

/// `VWIDTH` → `VWIDTH ( )` for the table's parameterless macros.
fn call_object_like(toks: &[Token], macros: &MacroTable) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        out.push(t.clone());
        let bare = t.ident().and_then(|n| macros.get(n)).is_some_and(|d| d.params.is_empty());
        if bare && !toks.get(k + 1).is_some_and(|n| n.is("(")) {
            out.push(Token { tok: Tok::Punct("("), span: t.span });
            out.push(Token { tok: Tok::Punct(")"), span: t.span });
        }
    }
    out
}

/// `Q [ e ]` (one predicate bit) → `Q [ ( e ) : ( e ) ]` for predicate names.
fn predicate_bits(toks: &[Token], binding: &Binding) -> Vec<Token> {
    let is_pred = |t: &Token| {
        t.ident().is_some_and(|n| n.starts_with('Q') && binding.regs.get(n).is_some_and(|r| r.width == 128))
    };
    let mut out = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        out.push(toks[k].clone());
        if is_pred(&toks[k]) && toks.get(k + 1).is_some_and(|t| t.is("[")) {
            // Find the matching `]` and whether a `:` stands at depth 0.
            let mut depth = 0usize;
            let mut colon = false;
            let mut end = None;
            for (j, t) in toks.iter().enumerate().skip(k + 2) {
                if t.is("(") || t.is("[") {
                    depth += 1;
                } else if t.is(")") || (t.is("]") && depth > 0) {
                    depth = depth.saturating_sub(1);
                } else if t.is("]") {
                    end = Some(j);
                    break;
                } else if t.is(":") && depth == 0 {
                    colon = true;
                }
            }
            if let (Some(end), false) = (end, colon) {
                let span = toks[k + 1].span;
                let p = |s: &'static str| Token { tok: Tok::Punct(s), span };
                let inner = &toks[k + 2..end];
                out.push(p("["));
                out.push(p("("));
                out.extend(inner.iter().cloned());
                out.push(p(")"));
                out.push(p(":"));
                out.push(p("("));
                out.extend(inner.iter().cloned());
                out.push(p(")"));
                out.push(p("]"));
                k = end + 1;
                continue;
            }
        }
        k += 1;
    }
    out
}

/// Names assigned somewhere in `stmts` without a declaration.
fn undeclared(stmts: &[CStmt], regs: &BTreeMap<String, RegBinding>) -> Vec<String> {
    fn place_name(e: &CExpr) -> Option<&str> {
        match &e.kind {
            CExprKind::Assign(_, p, _) | CExprKind::Step(p, _) => match &p.kind {
                CExprKind::Name(n) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }
    fn walk(s: &CStmt, assigned: &mut Vec<String>, declared: &mut BTreeSet<String>) {
        match &s.kind {
            CStmtKind::Expr(e) => assigned.extend(place_name(e).map(str::to_string)),
            CStmtKind::Decl(_, n, _) | CStmtKind::RegDecl(_, n) => {
                declared.insert(n.clone());
            }
            CStmtKind::Block(b) => b.iter().for_each(|s| walk(s, assigned, declared)),
            CStmtKind::If(_, t, o) => {
                walk(t, assigned, declared);
                if let Some(o) = o {
                    walk(o, assigned, declared);
                }
            }
            CStmtKind::For { init, step, body, .. } => {
                if let Some(i) = init {
                    walk(i, assigned, declared);
                }
                assigned.extend(step.as_ref().and_then(place_name).map(str::to_string));
                walk(body, assigned, declared);
            }
            CStmtKind::Empty => {}
        }
    }
    let mut assigned = Vec::new();
    let mut declared = BTreeSet::new();
    stmts.iter().for_each(|s| walk(s, &mut assigned, &mut declared));
    let mut out: Vec<String> = Vec::new();
    for n in assigned {
        if !declared.contains(&n) && !regs.contains_key(&n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// The manual's readings (see the module documentation) as front-end hooks.
struct ManualReading<'a> {
    macros: &'a MacroTable,
    binding: &'a Binding,
}

impl Reading for ManualReading<'_> {
    fn lexed(&self, toks: Vec<Token>) -> Vec<Token> {
        call_object_like(&toks, self.macros)
    }
    fn expanded(&self, toks: Vec<Token>) -> Vec<Token> {
        predicate_bits(&toks, self.binding)
    }
    fn parsed(&self, program: &mut Vec<CStmt>) {
        let decls: Vec<CStmt> = undeclared(program, &self.binding.regs)
            .into_iter()
            .map(|n| CStmt { span: Span::default(), kind: CStmtKind::Decl(LLONG, n, None) })
            .collect();
        program.splice(0..0, decls);
    }
}

/// Translates one manual entry's pseudocode with `binding` (the QEMU
/// binding; the manual's spellings are added here).
pub fn translate_manual(tag: &str, text: &str, binding: &Binding, macros: &MacroTable) -> Result<Semantics, Fault> {
    let binding = manual_binding(binding);
    let reading = ManualReading { macros, binding: &binding };
    front::translate_reading(tag, &format!("{tag}.manual"), text, &binding, macros, Arith::Exact, &reading).0
}

/// `width` pseudo-random bits, the first word drawn the most significant.
fn random_bits(rng: &mut Rng, width: u32) -> BigUint {
    let mut v = BigUint::zero();
    for _ in 0..width.div_ceil(64) {
        v = (v << 64u32) | BigUint::from(rng.next_u64());
    }
    v & ((BigUint::one() << width) - BigUint::one())
}

/// A byte pattern repeated over `width` bits.
fn pattern(bytes: &[u8], width: u32) -> BigUint {
    let n = width.div_ceil(8) as usize;
    let le: Vec<u8> = (0..n).map(|k| bytes[k % bytes.len()]).collect();
    BigUint::from_bytes_le(&le) & ((BigUint::one() << width) - BigUint::one())
}

/// Edge patterns (little-endian bytes, repeated): lane minima, maxima,
/// all-ones, alternations, small values.
const EDGES: &[&[u8]] = &[
    &[0x00],
    &[0xff],
    &[0x80],
    &[0x7f],
    &[0x00, 0x80],
    &[0xff, 0x7f],
    &[0x00, 0x00, 0x00, 0x80],
    &[0xff, 0xff, 0xff, 0x7f],
    &[0x01],
    &[0x55, 0xaa],
    &[0x01, 0x80, 0xff, 0x7f, 0x00, 0xfe],
];

/// The concrete inputs for `sema`'s arguments: edge cases, then random ones.
pub fn concrete_inputs(sema: &Semantics, count: usize, seed: u64) -> Vec<Vec<BigUint>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|case| {
            sema.args
                .iter()
                .enumerate()
                .map(|(k, a)| {
                    if let Some((lo, hi)) = a.imm_range {
                        let span = (hi - lo) as u64 + 1;
                        let v = match case {
                            0 => lo,
                            1 => hi,
                            2 => 0i64.clamp(lo, hi),
                            3 => 1i64.clamp(lo, hi),
                            _ => lo + rng.below(span) as i64,
                        };
                        let m = 1i128 << a.width;
                        return BigUint::from(((i128::from(v) % m + m) % m) as u128);
                    }
                    if case < EDGES.len() {
                        pattern(EDGES[(case + 3 * k) % EDGES.len()], a.width)
                    } else {
                        random_bits(&mut rng, a.width)
                    }
                })
                .collect()
        })
        .collect()
}

fn hex(v: &BigUint, width: u32) -> String {
    format!("{:0>w$}", v.to_str_radix(16), w = width.div_ceil(4) as usize)
}

/// Which of the two semantics could not be evaluated, and why.
#[derive(Debug, thiserror::Error)]
enum EvaluationError {
    #[error("qemu semantics: {0}")]
    Qemu(EvalError),
    #[error("manual semantics: {0}")]
    Manual(EvalError),
}

/// Runs both on `cases`; the first differing input, or why none was found.
fn differ_concretely(
    qemu: &Semantics,
    manual: &Semantics,
    cases: &[Vec<BigUint>],
) -> Result<Option<Witness>, EvaluationError> {
    for args in cases {
        let q = Machine::new(&mut Concrete, qemu).run(args).map_err(EvaluationError::Qemu)?;
        let m = Machine::new(&mut Concrete, manual).run(args).map_err(EvaluationError::Manual)?;
        if q != m {
            let words = qemu.result.width.div_ceil(32);
            let word_of = |v: &BigUint, w: u32| (v >> (32 * w)) & BigUint::from(0xffff_ffffu32);
            let word = (0..words).find(|&w| word_of(&q, w) != word_of(&m, w)).unwrap_or(0);
            return Ok(Some(Witness {
                inputs: qemu.args.iter().zip(args).map(|(a, v)| (a.name.clone(), hex(v, a.width))).collect(),
                word,
                qemu: hex(&word_of(&q, word), 32),
                manual: hex(&word_of(&m, word), 32),
            }));
        }
    }
    Ok(None)
}

/// `sema` with each immediate argument first confined to the bits the
/// instruction decodes (zero- or sign-extended from `imm_bits`), so that
/// a proof over all 32-bit argument values compares encodable ones only.
pub fn confine_immediates(sema: &Semantics) -> Semantics {
    let mut out = sema.clone();
    let mut prologue = Vec::new();
    for a in &sema.args {
        let Some(bits) = a.imm_bits.filter(|&b| b < a.width) else { continue };
        let signed = a.imm_range.is_some_and(|(lo, _)| lo < 0);
        let value = if signed {
            let sign = Expr::Slice {
                base: Box::new(Expr::var(&a.name)),
                hi: Box::new(Expr::int(i64::from(bits - 1))),
                lo: Box::new(Expr::int(i64::from(bits - 1))),
            };
            Expr::Select {
                cond: Box::new(Expr::binary(
                    BinOp::Eq,
                    Expr::Call { func: "AsInteger".into(), args: vec![sign, Expr::int(1)] },
                    Expr::int(1),
                )),
                then: Box::new(Expr::Int((BigInt::one() << (a.width - bits)) - 1)),
                otherwise: Box::new(Expr::int(0)),
            }
        } else {
            Expr::int(0)
        };
        let range = Some((Expr::int(i64::from(a.width - 1)), Expr::int(i64::from(bits))));
        prologue.push(Stmt {
            span: Span::default(),
            kind: StmtKind::Assign { place: Place { var: a.name.clone(), range }, value },
        });
    }
    prologue.append(&mut out.body);
    out.body = prologue;
    out
}

/// The share of a query's budget the retry with products abstracted gets.
const ABSTRACTED_SHARE: u32 = 4;

/// Compares one translated manual entry with the QEMU semantics.
pub fn compare(qemu: &Semantics, manual: &Semantics, budget_ms: u32) -> ManualVerdict {
    let cases = concrete_inputs(qemu, CONCRETE_CASES, 0x4856_584d_414e_5541);
    let concrete = differ_concretely(qemu, manual, &cases);
    let disagreed = |witness: Option<Witness>, summary: String| ManualVerdict::Disagreed {
        witness,
        summary,
        recorded: false,
        correction: None,
    };
    match concrete {
        Ok(Some(w)) => {
            let summary = format!("result word {}: qemu 0x{}, manual 0x{}", w.word, w.qemu, w.manual);
            return disagreed(Some(w), summary);
        }
        Ok(None) => {}
        Err(e) => return ManualVerdict::Unknown { reason: format!("evaluation failed: {e}") },
    }
    let identity: Vec<usize> = (0..qemu.args.len()).collect();
    let (qemu, manual) = (confine_immediates(qemu), confine_immediates(manual));
    // Too large at once: lane by lane (a 32-bit word at a time). The retry
    // with products abstracted gets a quarter of the budget: the entries it
    // proves take a tenth of it, and those it does not would spend it all.
    let budget = Budget { ms: budget_ms, abstracted_ms: budget_ms / ABSTRACTED_SHARE };
    let verdict = match prove_equal_then_by_slices(&qemu, &manual, &identity, budget, 32) {
        (Verdict::Equal, true) => return ManualVerdict::Agreed { by: "z3, 32-bit slices".into() },
        (v, _) => v,
    };
    match verdict {
        Verdict::Equal => ManualVerdict::Agreed { by: "z3".into() },
        Verdict::Differ => {
            disagreed(None, format!("Z3 finds a differing input ({CONCRETE_CASES} concrete inputs agreed)"))
        }
        Verdict::Unknown(r) => {
            ManualVerdict::Unknown { reason: format!("z3: {r}; agreed on {CONCRETE_CASES} concrete inputs") }
        }
    }
}

/// Cross-checks every manual entry that has QEMU semantics. `progress` is
/// called with (entries done, entries to check, tag) as each finishes.
pub fn cross_check(
    front: &FrontEnd,
    manual: &BTreeMap<String, ManualEntry>,
    macros: &MacroTable,
    corrections: &[Correction],
    budget_ms: u32,
    progress: &(dyn Fn(usize, usize, &str) + Sync),
) -> CrossCheck {
    let qemu: BTreeMap<&str, (&Semantics, &Binding)> = front
        .in_scope
        .iter()
        .filter_map(|t| Some((t.def.tag.as_str(), (t.result.as_ref().ok()?, t.binding.as_ref()?))))
        .collect();
    let mut report = CrossCheck { budget_ms, concrete_cases: CONCRETE_CASES, ..CrossCheck::default() };
    let mut work = Vec::new();
    for (tag, entry) in manual {
        match qemu.get(tag.as_str()) {
            Some(&(s, b)) => work.push((tag, entry, s, b)),
            None => report.no_qemu.push(tag.clone()),
        }
    }
    let total = work.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut entries: Vec<EntryReport> = work
        .par_iter()
        .map(|&(tag, entry, sema, binding)| {
            let verdict = match translate_manual(tag, &entry.spec, binding, macros) {
                Err(fault) => ManualVerdict::Unparsed { fault },
                Ok(m) => compare(sema, &m, budget_ms),
            };
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n, total, tag);
            EntryReport { tag: tag.clone(), intrinsic: entry.hvx_intrinsic.clone(), verdict }
        })
        .collect();
    entries.sort_by(|a, b| a.tag.cmp(&b.tag));
    let recorded: BTreeMap<&str, &Correction> = corrections.iter().map(|c| (c.tag.as_str(), c)).collect();
    for e in &mut entries {
        match &mut e.verdict {
            ManualVerdict::Agreed { .. } => report.agreed += 1,
            ManualVerdict::Unknown { .. } => report.unknown += 1,
            ManualVerdict::Unparsed { .. } => report.unparsed += 1,
            ManualVerdict::Disagreed { recorded: r, correction, .. } => {
                report.disagreed += 1;
                match recorded.get(e.tag.as_str()) {
                    Some(c) => {
                        *r = true;
                        *correction = Some(format!("{} (sides with {})", c.reason, c.sides_with));
                    }
                    None => report.unrecorded += 1,
                }
            }
        }
    }
    let disagreeing: BTreeSet<&str> = entries
        .iter()
        .filter(|e| matches!(e.verdict, ManualVerdict::Disagreed { .. }))
        .map(|e| e.tag.as_str())
        .collect();
    report.stale_corrections =
        corrections.iter().filter(|c| !disagreeing.contains(c.tag.as_str())).map(|c| c.tag.clone()).collect();
    report.entries = entries;
    report
}
