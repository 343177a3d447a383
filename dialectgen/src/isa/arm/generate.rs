//! The ARM part of `hydride gen`: validated semantics, their similarity
//! classes, the `hydride_arm` dialect and what each op lowers to.

use super::corrections::Corrections;
use super::front::{self, ArmSources};
use super::harness::HarnessConfig;
use super::report::{self, ArmReport};
use super::validate::{self, ArmOutcome, CaseCounts};
use crate::classify::engine::{classify, ClassStats, SimilarityClass};
use crate::design::{build, DialectDesign};
use crate::sema::ir::Semantics;
use std::collections::BTreeMap;

pub struct ArmGenerated {
    pub report: ArmReport,
    pub semantics: Vec<Semantics>,
    pub classes: Vec<SimilarityClass>,
    pub stats: ClassStats,
    pub dialect: DialectDesign,
    /// `generated/arm/class-database.json`.
    pub class_database: String,
    /// `generated/arm/llvm-lowerings.json` entries: op → lowering.
    pub lowerings: BTreeMap<String, super::lowering::ArmLowering>,
}

#[derive(Debug, thiserror::Error)]
pub enum ArmGenError {
    #[error(transparent)]
    FrontEnd(#[from] front::FrontEndError),
    #[error(transparent)]
    Lowering(#[from] super::lowering::ArmLoweringError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Runs the ARM front end, validates under the emulator (unless `harness`
/// is `None`), classifies what validated and designs the dialect.
pub fn generate(
    sources: &ArmSources,
    corrections: &Corrections,
    harness: Option<&HarnessConfig>,
    timeout_ms: u32,
    generated_by: &str,
    progress: &dyn Fn(&str, usize, usize),
) -> Result<ArmGenerated, ArmGenError> {
    progress("arm bind", 0, 1);
    let fe = front::run(sources, corrections, None)?;
    progress("arm bind", 1, 1);
    let with_sema: Vec<usize> = (0..fe.bound.len()).filter(|k| fe.bound[*k].result.is_ok()).collect();
    let mut outcomes: Vec<Option<ArmOutcome>> = vec![None; fe.bound.len()];
    if let Some(cfg) = harness {
        progress("arm run", 0, with_sema.len());
        outcomes = validate::validate(&fe.bound, cfg, CaseCounts::default());
        progress("arm run", with_sema.len(), with_sema.len());
    }
    let report = report::build(&fe, &outcomes);
    let chosen: Vec<usize> = with_sema
        .into_iter()
        .filter(|k| harness.is_none() || matches!(outcomes[*k], Some(ArmOutcome::Validated { .. })))
        .collect();
    let semantics: Vec<Semantics> =
        chosen.iter().map(|k| fe.bound[*k].result.clone().expect("has semantics")).collect();
    progress("arm classify", 0, semantics.len());
    let (classes, stats) = classify(&semantics, timeout_ms);
    progress("arm classify", semantics.len(), semantics.len());
    let scratch = tempfile::tempdir()?;
    let intrinsics: Vec<_> = chosen.iter().map(|k| &fe.bound[*k].intrinsic).collect();
    let lowered = super::lowering::lowerings(&intrinsics, std::path::Path::new("clang-22"), scratch.path())?;
    let dialect = build::target_dialect("hydride_arm", "AArch64 NEON", &semantics, generated_by);
    let mut db = format!("{{\"_generated_by\": {generated_by:?}, \"isa\": \"arm\", \"classes\": [\n");
    for (i, c) in classes.iter().enumerate() {
        let mut value = serde_json::to_value(c)?;
        if let Some(members) = value.get_mut("members").and_then(|m| m.as_array_mut()) {
            for m in members {
                let name = m["intrinsic"].as_str().unwrap_or_default().to_string();
                m["lowering"] = serde_json::to_value(lowered.get(&name))?;
            }
        }
        db.push_str(&serde_json::to_string(&value)?);
        db.push_str(if i + 1 < classes.len() { ",\n" } else { "\n" });
    }
    db.push_str("]}\n");
    let lowerings = lowered.into_iter().map(|(k, v)| (format!("hydride_arm.{}", build::op_name(&k)), v)).collect();
    Ok(ArmGenerated { report, semantics, classes, stats, dialect, class_database: db, lowerings })
}
