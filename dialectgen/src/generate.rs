//! `hydride gen`: from vendor data to every generated file, in one call.
//!
//! Front end (parse, validate), similarity classes, clang lowerings and
//! costs, the class database, the IRDL dialects and their round-trip tests.

use crate::classify::engine::{classify, ClassStats};
use crate::design::{build, render::render};
use crate::report::Report;
use crate::validate::ValidationConfig;
use crate::isa::x86::survey::{survey, Progress, SurveyOptions};
use std::path::{Path, PathBuf};

/// Written into every generated file's header.
pub const GENERATED_BY: &str = "hydride gen --isa-data <vendor data>";

pub struct GenOptions {
    pub isa_data: PathBuf,
    pub corrections: Option<PathBuf>,
    /// `None`: classify parsed semantics without validating them.
    pub validation: Option<ValidationConfig>,
    pub timeout_ms: u32,
    pub templates: PathBuf,
    pub out: PathBuf,
    pub lit_dir: PathBuf,
    /// C compiler and CPU for lowerings and costs.
    pub compiler: PathBuf,
    pub cost_cpu: String,
}

pub struct GenSummary {
    pub report: Report,
    pub stats: ClassStats,
    pub target_ops: usize,
    pub autollvm_ops: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error(transparent)]
    Survey(#[from] crate::isa::x86::survey::SurveyError),
    #[error(transparent)]
    Lowering(#[from] crate::isa::x86::lowering::LoweringError),
    #[error(transparent)]
    Render(#[from] crate::design::render::RenderError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("writing {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

fn write(path: &Path, text: &str) -> Result<(), GenError> {
    let wrap = |source| GenError::Write { path: path.display().to_string(), source };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(wrap)?;
    }
    std::fs::write(path, text).map_err(wrap)
}

pub fn generate(opts: &GenOptions, progress: &dyn Progress) -> Result<GenSummary, GenError> {
    let no_validate = opts.validation.is_none();
    let survey_opts = SurveyOptions {
        isa_data: opts.isa_data.clone(),
        corrections: opts.corrections.clone(),
        validation: opts.validation.clone(),
        filter: None,
    };
    let s = survey(&survey_opts, progress)?;
    let cpuids = s.cpuids;
    let semantics: Vec<_> = s.semantics.into_iter().filter(|(_, ok)| *ok || no_validate).map(|(s, _)| s).collect();
    progress.update("classify", 0, semantics.len());
    let (classes, stats) = classify(&semantics, opts.timeout_ms);
    progress.update("classify", semantics.len(), semantics.len());
    let summary = serde_json::json!({
        "_generated_by": GENERATED_BY,
        "x86": { "instructions": stats.instructions, "classes": stats.classes, "unproved_pairs": stats.unproved_pairs, "masked_members": stats.masked_members, "rejected": stats.rejected }
    });
    write(&opts.out.join("classes.json"), &(serde_json::to_string_pretty(&summary)? + "\n"))?;

    progress.update("lower", 0, semantics.len());
    let scratch =
        tempfile::tempdir().map_err(|source| GenError::Write { path: "temporary directory".into(), source })?;
    let lowerings = crate::isa::x86::lowering::lowerings(&semantics, &opts.compiler, &opts.cost_cpu, scratch.path())?;
    progress.update("lower", semantics.len(), semantics.len());
    // One class per line: reviewable diffs without a 10 MB pretty print.
    let cost_source =
        format!("machine instructions of the intrinsic alone, clang-22 -O1 -march={} (immediates = 1)", opts.cost_cpu);
    let mut db = format!(
        "{{\"_generated_by\": {:?}, \"isa\": \"x86\", \"cost_source\": {:?}, \"classes\": [\n",
        GENERATED_BY, cost_source
    );
    for (i, c) in classes.iter().enumerate() {
        let mut value = serde_json::to_value(c)?;
        if let Some(members) = value.get_mut("members").and_then(|m| m.as_array_mut()) {
            for m in members {
                let name = m["intrinsic"].as_str().unwrap_or_default().to_string();
                m["lowering"] = serde_json::to_value(lowerings.get(&name))?;
            }
        }
        db.push_str(&serde_json::to_string(&value)?);
        db.push_str(if i + 1 < classes.len() { ",\n" } else { "\n" });
    }
    db.push_str("]}\n");
    write(&opts.out.join("x86/class-database.json"), &db)?;

    let dialect_template = opts.templates.join("irdl_dialect.mlir.tera");
    let target = build::target_dialect("hydride_x86", "x86", &semantics, GENERATED_BY);
    write(&opts.out.join("x86/hydride_x86.irdl.mlir"), &render(&dialect_template, &target)?)?;
    let autollvm = build::autollvm_dialect(&target.name, &classes, &semantics, GENERATED_BY);
    write(&opts.out.join("autollvm.irdl.mlir"), &render(&dialect_template, &autollvm)?)?;
    write(&opts.out.join("op-variants.json"), &variant_table(&[&autollvm, &target])?)?;
    let calls = crate::design::llvm_call::llvm_calls(&target.name, &classes, &semantics, &lowerings, &cpuids);
    write(&opts.out.join("x86/llvm-calls.json"), &one_entry_per_line(calls.iter().map(|(k, v)| (k.clone(), v)))?)?;
    let one_to_one = opts.lit_dir.join("Lower").join("x86").join("autollvm-to-x86.mlir");
    write(&one_to_one, &render(&opts.templates.join("lower_one_to_one.mlir.tera"), &autollvm)?)?;
    for design in [&autollvm, &target] {
        let path = opts.lit_dir.join("Dialect").join(&design.name).join("roundtrip.mlir");
        write(&path, &render(&opts.templates.join("roundtrip.mlir.tera"), design)?)?;
    }
    Ok(GenSummary { report: s.report, stats, target_ops: target.ops.len(), autollvm_ops: autollvm.ops.len() })
}

/// `{"_generated_by": …, "key": value, …}`, one entry per line.
fn one_entry_per_line<'a, T: serde::Serialize + 'a>(
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
fn variant_table(designs: &[&crate::design::DialectDesign]) -> Result<String, GenError> {
    one_entry_per_line(
        designs.iter().flat_map(|d| d.ops.iter().map(move |op| (format!("{}.{}", d.name, op.name), &op.variants))),
    )
}
