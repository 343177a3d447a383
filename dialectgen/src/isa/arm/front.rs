//! The ARM front end as one step: read Arm's tables and ASL, decide scope,
//! bind every in-scope intrinsic to its encoding and translate its semantics.

use super::asl::instrs::{self, InstrFile};
use super::asl::library::Library;
use super::assembly;
use super::bind::{decode_words, semantics, BindFailure, Spec};
use super::corrections::Corrections;
use super::intrinsics::{self, Intrinsic};
use super::scope::{exclusion, Exclusion};
use crate::sema::ir::Semantics;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where Arm's files are under an ISA data directory.
#[derive(Clone, Debug)]
pub struct ArmSources {
    pub intrinsics: PathBuf,
    pub instrs: PathBuf,
    pub library: PathBuf,
}

impl ArmSources {
    /// `DIR/arm/…`, or `DIR/…` when `DIR` is the ARM folder itself.
    pub fn under(dir: &Path) -> ArmSources {
        let base = if dir.join("arm").join("intr.json").exists() { dir.join("arm") } else { dir.to_path_buf() };
        ArmSources {
            intrinsics: base.join("intr.json"),
            instrs: base.join("asl").join("arch_instrs.asl"),
            library: base.join("asl").join("arch.asl"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FrontEndError {
    #[error(transparent)]
    Intrinsics(#[from] intrinsics::IntrinsicsError),
    #[error(transparent)]
    Instrs(#[from] instrs::InstrFileError),
    #[error("{path}: {source}")]
    Library { path: PathBuf, source: std::io::Error },
    #[error("cannot run the assembler: {0}")]
    Assembler(String),
}

/// One in-scope intrinsic and what became of it.
#[derive(Clone, Debug)]
pub struct Bound {
    pub intrinsic: Intrinsic,
    /// The assembly of its instruction (first immediate value).
    pub assembly: Option<String>,
    /// Encoding and instruction (execute block) names.
    pub encoding: Option<String>,
    pub instruction: Option<String>,
    /// The instruction word for each immediate value, and the mask of the
    /// bits that do not name registers.
    pub words: Vec<(Option<i64>, u32)>,
    pub register_mask: u32,
    pub result: Result<Semantics, BindFailure>,
}

pub struct ArmFrontEnd {
    pub sources: ArmSources,
    pub total: usize,
    pub excluded: Vec<(Intrinsic, Exclusion)>,
    /// Excluded by a reviewed correction, with its reason.
    pub corrected_out: Vec<(Intrinsic, String)>,
    pub bound: Vec<Bound>,
}

/// Reads the sources and binds every in-scope intrinsic whose name
/// contains `filter` (all when `None`).
pub fn run(
    sources: &ArmSources,
    corrections: &Corrections,
    filter: Option<&str>,
) -> Result<ArmFrontEnd, FrontEndError> {
    let all = intrinsics::load(&sources.intrinsics)?;
    let instr_file: InstrFile = instrs::read(&sources.instrs)?;
    let library = Library::read(&sources.library)
        .map_err(|source| FrontEndError::Library { path: sources.library.clone(), source })?;
    let spec = Spec::new(instr_file, library);
    let total = all.len();
    let Scoped { in_scope, excluded, corrected_out } = scope_intrinsics(all, corrections, filter);
    let Assembly { lines, owners, mut asm_fail } = assembly_lines(&in_scope);
    let words = assembly::encode(&lines).map_err(|e| FrontEndError::Assembler(e.to_string()))?;
    let mut per: BTreeMap<usize, Vec<(Option<i64>, u32)>> = BTreeMap::new();
    let mut first_line: BTreeMap<usize, String> = BTreeMap::new();
    for ((k, v), (line, w)) in owners.iter().zip(lines.iter().zip(words)) {
        first_line.entry(*k).or_insert_with(|| line.clone());
        match w {
            Ok(w) => per.entry(*k).or_default().push((*v, w)),
            Err(e) => {
                asm_fail.entry(*k).or_insert_with(|| ("assemble", format!("`{line}`: {e}")));
            }
        }
    }
    let bound: Vec<Bound> = in_scope
        .into_par_iter()
        .enumerate()
        .map(|(k, i)| {
            let assembly = first_line.get(&k).cloned();
            match asm_fail.get(&k) {
                Some((stage, e)) => unassembled(i, assembly, *stage, e),
                None => bind(&spec, i, assembly, per.get(&k).cloned().unwrap_or_default()),
            }
        })
        .collect();
    Ok(ArmFrontEnd { sources: sources.clone(), total, excluded, corrected_out, bound })
}

/// The intrinsics matching the filter, corrected, and sorted into those in
/// scope, those out of scope (with why), and those a correction excludes.
struct Scoped {
    in_scope: Vec<Intrinsic>,
    excluded: Vec<(Intrinsic, Exclusion)>,
    corrected_out: Vec<(Intrinsic, String)>,
}

fn scope_intrinsics(all: Vec<Intrinsic>, corrections: &Corrections, filter: Option<&str>) -> Scoped {
    let mut excluded = Vec::new();
    let mut corrected_out = Vec::new();
    let mut in_scope = Vec::new();
    for mut i in all {
        if filter.is_some_and(|f| !i.name.contains(f)) {
            continue;
        }
        if let Some(c) = corrections.get(&i.name) {
            if c.exclude {
                corrected_out.push((i, c.reason.clone()));
                continue;
            }
            if let Some(ins) = &c.instruction {
                i.instructions = vec![ins.clone()];
            }
            if let Some(ops) = &c.operands {
                i.operands = ops.clone();
            }
        }
        match exclusion(&i) {
            Ok(()) => in_scope.push(i),
            Err(e) => excluded.push((i, e)),
        }
    }
    Scoped { in_scope, excluded, corrected_out }
}

/// Every immediate value of every in-scope intrinsic as an assembly line,
/// for assembling in one call.
struct Assembly {
    lines: Vec<String>,
    /// Per line, the intrinsic's index and the immediate value.
    owners: Vec<(usize, Option<i64>)>,
    /// Per intrinsic, why it has no instruction words: stage and message.
    asm_fail: BTreeMap<usize, (&'static str, String)>,
}

fn assembly_lines(in_scope: &[Intrinsic]) -> Assembly {
    let mut lines = Vec::new();
    let mut owners: Vec<(usize, Option<i64>)> = Vec::new();
    let mut asm_fail: BTreeMap<usize, (&'static str, String)> = BTreeMap::new();
    for (k, i) in in_scope.iter().enumerate() {
        let immediates: Vec<&str> = i.args.iter().filter(|a| a.range.is_some()).map(|a| a.name.as_str()).collect();
        if immediates.len() > 1 {
            asm_fail.insert(
                k,
                ("signature", format!("more than one immediate ({}) is not modelled", immediates.join(", "))),
            );
            continue;
        }
        let imm = i.args.iter().find(|a| a.range.is_some());
        let values: Vec<Option<i64>> = match imm.and_then(|a| a.range) {
            Some((lo, hi)) => (lo..=hi).map(Some).collect(),
            None => vec![None],
        };
        for v in values {
            let imms: Vec<(String, i64)> = match (imm, v) {
                (Some(a), Some(v)) => vec![(a.name.clone(), v)],
                _ => Vec::new(),
            };
            match assembly::assembly_text(i, &imms) {
                Ok(text) => {
                    lines.push(text);
                    owners.push((k, v));
                }
                Err(e) => {
                    asm_fail.entry(k).or_insert_with(|| ("assemble", e.to_string()));
                }
            }
        }
    }
    Assembly { lines, owners, asm_fail }
}

/// An intrinsic that has no instruction words, failed at `stage`.
fn unassembled(intrinsic: Intrinsic, assembly: Option<String>, stage: &'static str, message: &str) -> Bound {
    let f = BindFailure { stage, message: message.to_string(), location: None };
    Bound {
        intrinsic,
        assembly,
        encoding: None,
        instruction: None,
        words: Vec::new(),
        register_mask: 0,
        result: Err(f),
    }
}

/// An intrinsic bound through its instruction words to an encoding, and its
/// semantics translated.
fn bind(spec: &Spec, i: Intrinsic, assembly: Option<String>, words: Vec<(Option<i64>, u32)>) -> Bound {
    match decode_words(spec, &words) {
        Err(f) => {
            Bound { intrinsic: i, assembly, encoding: None, instruction: None, words, register_mask: 0, result: Err(f) }
        }
        Ok(d) => {
            let enc = &spec.instrs.encodings[d.encoding];
            let encoding = Some(enc.name.clone());
            let instruction = Some(spec.instrs.instructions[enc.instruction].name.clone());
            let register_mask = !enc
                .fields
                .iter()
                .filter(|f| matches!(f.name.as_str(), "Rd" | "Rn" | "Rm" | "Ra" | "Rt"))
                .fold(0u32, |m, f| m | (((1u64 << f.width) - 1) << f.lo) as u32);
            let result = semantics(spec, &i, &d);
            Bound { intrinsic: i, assembly, encoding, instruction, words, register_mask, result }
        }
    }
}
