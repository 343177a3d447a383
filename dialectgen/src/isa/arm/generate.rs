//! The ARM part of `hydride gen`: semantics validated under qemu-aarch64,
//! and, given their classes, what each instruction lowers to.

use super::corrections::Corrections;
use super::front::{self, ArmSources};
use super::harness::HarnessConfig;
use super::intrinsics::Intrinsic;
use super::report::{self, ArmReport};
use super::validate::{self, ArmOutcome, CaseCounts};
use crate::classify::engine::{Numbers, SimilarityClass};
use crate::classify::mask::MaskModel;
use crate::design::build;
use crate::gen_options::{GenError, GenOptions};
use crate::isa::front_end::{FrontEnd, Lowerings, Merging};
use crate::isa::Progress;
use crate::sema::ir::Semantics;

/// AArch64 NEON in the ISA registry.
pub struct Arm;

fn err(e: impl std::error::Error + Send + Sync + 'static) -> GenError {
    GenError::isa("arm", e)
}

impl crate::isa::Isa for Arm {
    fn front_end_command(&self, cmd: clap::Command) -> clap::Command {
        super::cli::command(cmd)
    }

    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn Progress) -> anyhow::Result<()> {
        super::cli::run(matches, progress)
    }

    fn name(&self) -> &'static str {
        "arm"
    }

    fn front_end(&self, opts: &GenOptions, progress: &dyn Progress) -> Result<Box<dyn FrontEnd>, GenError> {
        let corrections_path = opts.specs_dir.join("arm").join("corrections.yaml");
        let corrections = if corrections_path.exists() {
            Corrections::load(&corrections_path).map_err(err)?
        } else {
            Corrections::default()
        };
        let scratch = tempfile::tempdir().map_err(err)?;
        let harness =
            opts.validate.then(|| HarnessConfig::new(opts.compiler.clone(), scratch.path().to_path_buf(), opts.jobs));
        if let Some(h) = &harness {
            if !h.runner.available() {
                return Err(err(std::io::Error::other(
                    "qemu-aarch64 is not installed (scripts/setup installs qemu-user)",
                )));
            }
        }
        let fe =
            validated(&ArmSources::under(&opts.isa_data), &corrections, harness.as_ref(), progress).map_err(err)?;
        Ok(Box::new(fe))
    }
}

/// The intrinsics bound and validated, with their report.
struct ArmFrontEnd {
    report: ArmReport,
    semantics: Vec<Semantics>,
    /// The intrinsic of each of `semantics`.
    intrinsics: Vec<Intrinsic>,
}

/// Runs the ARM front end and validates under the emulator (unless
/// `harness` is `None`).
fn validated(
    sources: &ArmSources,
    corrections: &Corrections,
    harness: Option<&HarnessConfig>,
    progress: &dyn Progress,
) -> Result<ArmFrontEnd, front::FrontEndError> {
    progress.update("arm bind", 0, 1);
    let fe = front::run(sources, corrections, None)?;
    progress.update("arm bind", 1, 1);
    let with_sema: Vec<usize> = (0..fe.bound.len()).filter(|k| fe.bound[*k].result.is_ok()).collect();
    let mut outcomes: Vec<Option<ArmOutcome>> = vec![None; fe.bound.len()];
    if let Some(cfg) = harness {
        progress.update("arm run", 0, with_sema.len());
        outcomes = validate::validate(&fe.bound, cfg, CaseCounts::default());
        progress.update("arm run", with_sema.len(), with_sema.len());
    }
    let report = report::build(&fe, &outcomes);
    let chosen: Vec<usize> = with_sema
        .into_iter()
        .filter(|k| harness.is_none() || matches!(outcomes[*k], Some(ArmOutcome::Validated { .. })))
        .collect();
    let semantics = chosen.iter().map(|k| fe.bound[*k].result.clone().expect("has semantics")).collect();
    let intrinsics = chosen.iter().map(|k| fe.bound[*k].intrinsic.clone()).collect();
    Ok(ArmFrontEnd { report, semantics, intrinsics })
}

impl FrontEnd for ArmFrontEnd {
    fn semantics(&self) -> &[Semantics] {
        &self.semantics
    }

    /// Merging fits numbers to the signature only: its classes stay as the
    /// lowering tests know them.
    fn merging(&self) -> Merging {
        Merging { mask: MaskModel::None, numbers: Numbers::OfSignature }
    }

    fn title(&self) -> &'static str {
        "AArch64 NEON"
    }

    fn report(&self) -> Result<serde_json::Value, GenError> {
        Ok(serde_json::to_value(&self.report)?)
    }

    fn lowerings(&self, _: &[SimilarityClass], _: &GenOptions, _: &dyn Progress) -> Result<Lowerings, GenError> {
        let scratch = tempfile::tempdir().map_err(err)?;
        let intrinsics: Vec<&Intrinsic> = self.intrinsics.iter().collect();
        let lowered =
            super::lowering::lowerings(&intrinsics, std::path::Path::new("clang-22"), scratch.path()).map_err(err)?;
        let coverage = super::lowering::coverage(&intrinsics, &lowered);
        let cpu_costs = super::cpus::CPUS
            .price(&super::lowering::cost_functions(&intrinsics), std::path::Path::new("clang-22"), scratch.path())
            .map_err(err)?;
        // The database names what each member becomes; the IR itself is in the lowering table only.
        let per_member = lowered
            .iter()
            .map(|(n, l)| {
                let named = super::lowering::ArmLowering {
                    snippet: None,
                    snippet_per_immediate: None,
                    snippet_of_immediate: None,
                    ..l.clone()
                };
                Ok((n.clone(), serde_json::to_value(named)?))
            })
            .collect::<Result<_, GenError>>()?;
        let table = lowered
            .iter()
            .filter_map(|(k, v)| {
                Some((format!("hydride_arm.{}", build::op_name(k)), super::op_lowering::op_lowering(v)?))
            })
            .collect();
        Ok(Lowerings {
            database_fields: Vec::new(),
            per_member,
            table,
            coverage: Some(serde_json::to_value(&coverage)?),
            cpu_costs: Some(cpu_costs),
        })
    }
}
