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
    /// How many of them have a lowering, of which form.
    pub coverage: super::lowering::Coverage,
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
    #[error("class database: {0}")]
    Db(String),
}

/// AArch64 NEON in the ISA registry.
pub struct Arm;

impl crate::isa::Isa for Arm {
    fn front_end_command(&self, cmd: clap::Command) -> clap::Command {
        super::cli::command(cmd)
    }

    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn crate::isa::Progress) -> anyhow::Result<()> {
        super::cli::run(matches, progress)
    }

    fn name(&self) -> &'static str {
        "arm"
    }

    fn generate(
        &self,
        opts: &crate::gen_options::GenOptions,
        progress: &dyn crate::isa::Progress,
    ) -> Result<crate::isa::IsaOutput, crate::gen_options::GenError> {
        let err = |e: ArmGenError| crate::gen_options::GenError::isa("arm", e);
        let corrections_path = opts.specs_dir.join("arm").join("corrections.yaml");
        let corrections = if corrections_path.exists() {
            Corrections::load(&corrections_path).map_err(|e| crate::gen_options::GenError::isa("arm", e))?
        } else {
            Corrections::default()
        };
        let scratch = tempfile::tempdir().map_err(|e| err(e.into()))?;
        let harness =
            opts.validate.then(|| HarnessConfig::new(opts.compiler.clone(), scratch.path().to_path_buf(), opts.jobs));
        if let Some(h) = &harness {
            if !h.runner.available() {
                return Err(crate::gen_options::GenError::isa(
                    "arm",
                    std::io::Error::other("qemu-aarch64 is not installed (scripts/setup installs qemu-user)"),
                ));
            }
        }
        let g = generate(
            &ArmSources::under(&opts.isa_data),
            &corrections,
            harness.as_ref(),
            opts.timeout_ms,
            crate::gen_options::GENERATED_BY,
            &|s, d, t| progress.update(s, d, t),
        )
        .map_err(err)?;
        let lowerings = crate::gen_tables::one_entry_per_line(g.lowerings.iter().map(|(k, v)| (k.clone(), v)))?;
        Ok(crate::isa::IsaOutput {
            semantics: g.semantics,
            classes: g.classes,
            stats: g.stats,
            dialect: g.dialect,
            report: {
                let mut report = serde_json::to_value(&g.report)?;
                report["llvm_lowering"] = serde_json::to_value(&g.coverage)?;
                report
            },
            files: vec![
                ("arm/class-database.json".into(), g.class_database),
                ("arm/llvm-lowerings.json".into(), lowerings),
            ],
        })
    }
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
    // Merging fits numbers to the signature only: its classes stay as the lowering tests know them.
    let (classes, stats) = classify(
        &semantics,
        timeout_ms,
        crate::classify::mask::MaskModel::None,
        crate::classify::engine::Numbers::OfSignature,
    );
    progress("arm classify", semantics.len(), semantics.len());
    let scratch = tempfile::tempdir()?;
    let intrinsics: Vec<_> = chosen.iter().map(|k| &fe.bound[*k].intrinsic).collect();
    let lowered = super::lowering::lowerings(&intrinsics, std::path::Path::new("clang-22"), scratch.path())?;
    let coverage = super::lowering::coverage(&intrinsics, &lowered);
    let dialect = build::target_dialect("hydride_arm", "AArch64 NEON", &semantics, generated_by);
    // The database names what each member becomes; the IR itself is in the lowering table only.
    let db = crate::gen_tables::class_database("arm", &[], &classes, |n| {
        lowered.get(n).map(|l| super::lowering::ArmLowering {
            snippet: None,
            snippet_per_immediate: None,
            snippet_of_immediate: None,
            ..l.clone()
        })
    })
    .map_err(|e| ArmGenError::Db(e.to_string()))?;
    let lowerings = lowered.into_iter().map(|(k, v)| (format!("hydride_arm.{}", build::op_name(&k)), v)).collect();
    Ok(ArmGenerated { report, semantics, classes, stats, dialect, class_database: db, lowerings, coverage })
}
