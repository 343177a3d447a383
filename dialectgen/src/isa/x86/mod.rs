//! The x86 front end: Intel Intrinsics Guide XML → semantics IR.

pub mod cli;
pub mod corrections;
pub mod cpus;
pub mod generate;
pub mod guide;
pub mod host;
pub mod host_cpu;
pub mod lexer;
pub mod llvm_call;
pub mod op_lowering;
pub mod lowering;
pub mod pseudocode;
pub mod report;
pub mod scope;
pub mod signature;
pub mod survey;
pub mod validate;


use crate::sema::ir::{Semantics, RESULT_TOP};
use corrections::Corrections;
use guide::{GuideEntry, GuideError, SkippedEntry};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// All entries of the guide files found for x86 under an ISA data directory.
pub struct X86Guide {
    pub files: Vec<PathBuf>,
    pub entries: Vec<GuideEntry>,
    pub skipped: Vec<SkippedEntry>,
    /// Entries whose name already appeared in an earlier file.
    pub duplicates: usize,
}

/// The XML files to read: `DIR/x86/*.xml`, or `DIR/*.xml` when `DIR` holds
/// them directly, or `DIR` itself when it is a file. Sorted by name; an
/// intrinsic defined in several files is taken from the first.
pub fn guide_files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let list = |d: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        v.sort();
        v
    };
    let nested = list(&dir.join("x86"));
    if nested.is_empty() {
        list(dir)
    } else {
        nested
    }
}

pub fn load_guide(dir: &Path) -> Result<X86Guide, GuideError> {
    let files = guide_files(dir);
    let mut seen = HashSet::new();
    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    let mut duplicates = 0;
    for f in &files {
        let g = guide::read_guide(f)?;
        skipped.extend(g.skipped);
        for e in g.entries {
            if seen.insert(e.name.clone()) {
                entries.push(e);
            } else {
                duplicates += 1;
            }
        }
    }
    Ok(X86Guide { files, entries, skipped, duplicates })
}

/// Why an in-scope entry has no semantics.
#[derive(Clone, Debug, PartialEq)]
pub struct FrontEndFailure {
    pub stage: &'static str,
    pub message: String,
    /// `file:line` in the guide, when known.
    pub location: Option<String>,
    /// The pseudocode line at fault.
    pub source_line: Option<String>,
}

/// Parses an in-scope entry into semantics, applying corrections, and
/// type-checks it.
pub fn lower_entry(entry: &GuideEntry, corrections: &Corrections) -> Result<Semantics, FrontEndFailure> {
    let mut etypes = BTreeMap::new();
    let mut operation = entry.operation.clone().unwrap_or_default();
    let mut replaced = false;
    for c in corrections.matching(entry) {
        if c.exclude {
            return Err(FrontEndFailure {
                stage: "excluded",
                message: c.reason.clone(),
                location: None,
                source_line: None,
            });
        }
        etypes.extend(c.etype.clone());
        for p in &c.patch {
            operation = operation.replace(&p.find, &p.replace);
        }
        if let Some(op) = &c.operation {
            operation = op.clone();
            replaced = true;
        }
    }
    let (args, mut result) = signature::signature(entry, &etypes).map_err(|e| FrontEndFailure {
        stage: "signature",
        message: e.to_string(),
        location: Some(format!("{}:{}", entry.file.display(), entry.line)),
        source_line: None,
    })?;
    if result.name.is_empty() {
        result.name = "dst".into();
    }
    // A failure at a pseudocode position: the guide line when the text is
    // the vendor's (patches keep lines), none for replaced pseudocode.
    let located = |stage: &'static str, message: String, span: crate::sema::ir::Span| FrontEndFailure {
        stage,
        message,
        location: (!replaced && span.line > 0)
            .then(|| format!("{}:{}", entry.file.display(), entry.operation_line + span.line - 1)),
        source_line: operation.lines().nth((span.line as usize).saturating_sub(1)).map(|l| l.trim().to_string()),
    };
    let parsed = pseudocode::parse_operation(&operation).map_err(|e| located("parse", e.to_string(), e.span()))?;
    let mut sema = Semantics { name: entry.name.clone(), args, result, functions: parsed.functions, body: parsed.body };
    intel_names_to_neutral(&mut sema);
    crate::eval::typing::infer_types(&sema).map_err(|e| located("type", e.to_string(), e.span()))?;
    Ok(sema)
}

/// Intel's pseudocode names values that the semantics IR has reserved names
/// for: `MAX` (the top bit of the destination, as in `dst[MAX:256] := 0`) is
/// [`RESULT_TOP`], the `_MM_CMPINT_*` comparison predicates are `CMP_*`; and
/// its helpers are the IR's built-ins (see [`helper_to_builtin`]).
pub fn intel_names_to_neutral(sema: &mut Semantics) {
    let defined: Vec<String> = sema.functions.iter().map(|f| f.name.clone()).collect();
    crate::sema::visit::walk_semantics_mut(
        sema,
        &mut |e: &mut crate::sema::ir::Expr| {
            if let crate::sema::ir::Expr::Call { func, args } = e {
                if !defined.contains(func) {
                    helper_to_builtin(func, args);
                }
            }
            if let crate::sema::ir::Expr::Var(n) = e {
                if n == "MAX" {
                    *n = RESULT_TOP.to_string();
                } else if let Some(p) = n.strip_prefix("_MM_CMPINT_") {
                    *n = format!("CMP_{p}");
                }
            }
        },
        &mut |_| {},
    );
}

/// An Intel helper as the IR's built-in: `Saturate16(x)` → `Saturate(x, 16)`
/// (likewise `SaturateU`, `SignExtend`, `ZeroExtend`, `Truncate`), `ABS` →
/// `Abs`, `MAX`/`MIN` → `Max`/`Min`, `POPCNT` → `PopCount`, `inverse` (the
/// GF(2^8) inverse of GF2P8AFFINEINVQB) → `GaloisInverse`.
fn helper_to_builtin(func: &mut String, args: &mut Vec<crate::sema::ir::Expr>) {
    for prefix in ["SaturateU", "Saturate", "SignExtend", "ZeroExtend", "Truncate"] {
        if let Some(w) = func.strip_prefix(prefix).and_then(|w| w.parse::<i64>().ok()) {
            *func = prefix.to_string();
            args.push(crate::sema::ir::Expr::int(w));
            return;
        }
    }
    let renamed = match func.as_str() {
        "ABS" => "Abs",
        "MAX" => "Max",
        "MIN" => "Min",
        "POPCNT" => "PopCount",
        "inverse" => "GaloisInverse",
        _ => return,
    };
    *func = renamed.to_string();
}
