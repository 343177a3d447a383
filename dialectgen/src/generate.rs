//! `hydride gen`: from vendor data to every generated file, in one call.
//!
//! Each registered ISA ([`crate::isa::registry`]) reads, validates and
//! classifies its instructions and designs its dialect; this module writes
//! what they give, the `autollvm` dialect over their classes, the class
//! summary, the op variant table and the dialects' round-trip tests.

use crate::design::{build, ods, render::render, render::render_value, DialectDesign};
use crate::isa::{registry, IsaOutput, Progress};
use std::path::{Path, PathBuf};

/// Written into every generated file's header.
pub const GENERATED_BY: &str = "hydride gen --isa-data <vendor data>";

pub struct GenOptions {
    pub isa_data: PathBuf,
    /// `isa-specs/`: per ISA, reviewed corrections and recorded evidence.
    pub specs_dir: PathBuf,
    /// Validate by execution; without, classify what parses.
    pub validate: bool,
    /// Recorded hardware verdicts to use instead of `isa-specs/<isa>/`'s
    /// (ISAs validated on the host); `no_record` uses none.
    pub record: Option<PathBuf>,
    pub no_record: bool,
    /// Reuse validation verdicts cached here.
    pub cache_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub timeout_ms: u32,
    pub templates: PathBuf,
    pub out: PathBuf,
    pub lit_dir: PathBuf,
    /// The C compiler (clang-22).
    pub compiler: PathBuf,
}

pub struct GenSummary {
    /// Per ISA: its output.
    pub isas: Vec<(&'static str, IsaOutput)>,
    pub autollvm_ops: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("{isa}: {source}")]
    Isa { isa: &'static str, source: Box<dyn std::error::Error + Send + Sync> },
    #[error(transparent)]
    Render(#[from] crate::design::render::RenderError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("writing {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

impl GenError {
    pub fn isa(isa: &'static str, e: impl std::error::Error + Send + Sync + 'static) -> GenError {
        GenError::Isa { isa, source: Box::new(e) }
    }
}

pub fn write(path: &Path, text: &str) -> Result<(), GenError> {
    let wrap = |source| GenError::Write { path: path.display().to_string(), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(wrap)?;
    }
    std::fs::write(path, text).map_err(wrap)
}

/// The header's words for what produced a file: the command and the vendor
/// data's fingerprint (see [`crate::vendor_hash`]), in place of [`GENERATED_BY`].
pub fn provenance(vendor_hash: &str) -> String {
    format!("scripts/regen (hydride gen), vendor data sha256:{vendor_hash}")
}

pub fn generate(opts: &GenOptions, progress: &dyn Progress) -> Result<GenSummary, GenError> {
    let names: Vec<&str> = registry().iter().map(|isa| isa.name()).collect();
    let hash = crate::vendor_hash::vendor_data_hash(&opts.isa_data, &names)
        .map_err(|source| GenError::Write { path: opts.isa_data.display().to_string(), source })?;
    let header = provenance(&hash);
    // Every file's header names the command and the vendor data it came from.
    let write = |path: &Path, text: &str| write(path, &text.replace(GENERATED_BY, &header));
    let mut isas = Vec::new();
    for isa in registry() {
        let out = isa.generate(opts, progress)?;
        for (rel, text) in &out.files {
            write(&opts.out.join(rel), text)?;
        }
        isas.push((isa.name(), out));
    }
    let mut summary = serde_json::Map::new();
    summary.insert("_generated_by".into(), GENERATED_BY.into());
    for (name, o) in &isas {
        let s = &o.stats;
        summary.insert(
            name.to_string(),
            serde_json::json!({ "instructions": s.instructions, "classes": s.classes, "unproved_pairs": s.unproved_pairs, "masked_members": s.masked_members, "rejected": s.rejected }),
        );
    }
    progress.update("classify all ISAs", 0, isas.iter().map(|(_, o)| o.semantics.len()).sum());
    let combined = crate::classify::cross_isa::classify_across(
        &isas.iter().map(|(name, o)| (*name, o.semantics.as_slice())).collect::<Vec<_>>(),
        opts.timeout_ms,
    );
    progress.update("classify all ISAs", combined.instructions, combined.instructions);
    summary.insert("combined".into(), serde_json::to_value(&combined)?);
    write(&opts.out.join("classes.json"), &(serde_json::to_string_pretty(&summary)? + "\n"))?;

    let dialect_template = opts.templates.join("irdl_dialect.mlir.tera");
    let ods_template = opts.templates.join("ods_dialect.td.tera");
    let mut designs: Vec<DialectDesign> = Vec::new();
    let mut autollvm_ops = 0;
    for (name, o) in &isas {
        write(
            &opts.out.join(name).join(format!("{}.irdl.mlir", o.dialect.name)),
            &render(&dialect_template, &o.dialect)?,
        )?;
        write(
            &opts.out.join(name).join(format!("{}.td", o.dialect.name)),
            &render_value(&ods_template, &ods::ods_dialect(&o.dialect, Some(&lowering_table(&o.files))))?,
        )?;
        if o.feeds_autollvm {
            let autollvm = build::autollvm_dialect(&o.dialect.name, &o.classes, &o.semantics, GENERATED_BY);
            write(&opts.out.join("autollvm.irdl.mlir"), &render(&dialect_template, &autollvm)?)?;
            write(&opts.out.join("autollvm.td"), &render_value(&ods_template, &ods::ods_dialect(&autollvm, None))?)?;
            let one_to_one = opts.lit_dir.join("Lower").join(name).join(format!("autollvm-to-{name}.mlir"));
            write(&one_to_one, &render(&opts.templates.join("lower_one_to_one.mlir.tera"), &autollvm)?)?;
            autollvm_ops = autollvm.ops.len();
            designs.insert(0, autollvm);
        }
        designs.push(o.dialect.clone());
    }
    write(&opts.out.join("op-variants.json"), &variant_table(&designs.iter().collect::<Vec<_>>())?)?;
    for design in &designs {
        let path = opts.lit_dir.join("Dialect").join(&design.name).join("roundtrip.mlir");
        write(&path, &render(&opts.templates.join("roundtrip.mlir.tera"), design)?)?;
    }
    Ok(GenSummary { isas, autollvm_ops })
}

/// The LLVM intrinsics of an ISA's ops, from the lowering table among its
/// generated files (empty if it has none).
fn lowering_table(files: &[(String, String)]) -> ods::LlvmIntrinsics {
    const TABLES: [&str; 3] = ["llvm-calls.json", "llvm-lowerings.json", "llvm-intrinsics.json"];
    files
        .iter()
        .filter(|(rel, _)| TABLES.iter().any(|t| rel.ends_with(t)))
        .flat_map(|(_, text)| ods::llvm_intrinsics(text))
        .collect()
}

/// `{"_generated_by": …, "key": value, …}`, one entry per line.
pub fn one_entry_per_line<'a, T: serde::Serialize + 'a>(
    entries: impl IntoIterator<Item = (String, &'a T)>,
) -> Result<String, GenError> {
    let mut out = format!("{{\"_generated_by\": {GENERATED_BY:?}");
    for (key, value) in entries {
        out.push_str(&format!(",\n{key:?}: {}", serde_json::to_string(value)?));
    }
    out.push_str("\n}\n");
    Ok(out)
}

/// `{"dialect.op": [variant, …], …}`, one op per line: what the plugin's
/// compiled verifier and the one-to-one lowering read.
fn variant_table(designs: &[&DialectDesign]) -> Result<String, GenError> {
    one_entry_per_line(
        designs.iter().flat_map(|d| d.ops.iter().map(move |op| (format!("{}.{}", d.name, op.name), &op.variants))),
    )
}

/// A class database: one class per line, each member with what it lowers to.
pub fn class_database<L: serde::Serialize>(
    isa: &str,
    extra: &[(&str, &str)],
    classes: &[crate::classify::engine::SimilarityClass],
    lowering: impl Fn(&str) -> Option<L>,
) -> Result<String, GenError> {
    let mut db = format!("{{\"_generated_by\": {GENERATED_BY:?}, \"isa\": {isa:?}");
    for (k, v) in extra {
        db.push_str(&format!(", {k:?}: {v:?}"));
    }
    db.push_str(", \"classes\": [\n");
    for (i, c) in classes.iter().enumerate() {
        let mut value = serde_json::to_value(c)?;
        if let Some(members) = value.get_mut("members").and_then(|m| m.as_array_mut()) {
            for m in members {
                let name = m["intrinsic"].as_str().unwrap_or_default().to_string();
                m["lowering"] = serde_json::to_value(lowering(&name))?;
            }
        }
        db.push_str(&serde_json::to_string(&value)?);
        db.push_str(if i + 1 < classes.len() { ",\n" } else { "\n" });
    }
    db.push_str("]}\n");
    Ok(db)
}
