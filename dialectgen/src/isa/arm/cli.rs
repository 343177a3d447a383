//! `hydride isa arm`: bind Arm's intrinsics table to its ASL, translate, and
//! (with --validate) run every intrinsic under qemu-aarch64.

use super::corrections::Corrections;
use super::{front, harness, report, validate};
use crate::isa::cli::{read_args, repository_path, scratch_dir, with_args, write_json, FrontEndArgs};
use crate::isa::Progress;
use anyhow::{bail, Context, Result};
use clap::{ArgMatches, Args, Command};
use std::path::PathBuf;

/// The reviewed corrections to Arm's table, relative to the repository.
const CORRECTIONS: &str = "isa-specs/arm/corrections.yaml";

/// `hydride isa arm`'s options.
#[derive(Args, Debug)]
struct ArmArgs {
    #[command(flatten)]
    common: FrontEndArgs,
    /// Reviewed corrections to Arm's tables (default: the repository's
    /// isa-specs/arm/corrections.yaml).
    #[arg(long)]
    corrections: Option<PathBuf>,
    /// Use Arm's tables exactly as published.
    #[arg(long, conflicts_with = "corrections")]
    no_corrections: bool,
    /// Only intrinsics whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Parallel jobs for compiling and running tests (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
}

pub(crate) fn command(cmd: Command) -> Command {
    with_args::<ArmArgs>(cmd)
        .about("AArch64 NEON with dotprod and i8mm (Arm's intrinsics table and ASL), validated under qemu-aarch64")
}

/// `hydride isa arm`.
pub(crate) fn run(matches: &ArgMatches, _progress: &dyn Progress) -> Result<()> {
    let ArmArgs { common: a, corrections, no_corrections, filter, jobs } = read_args(matches)?;
    let sources = front::ArmSources::under(&a.isa_data);
    if !sources.intrinsics.exists() {
        bail!("no ARM intrinsics table at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.intrinsics.display());
    }
    let corrections = if no_corrections {
        Corrections::default()
    } else {
        match corrections.or_else(|| repository_path(CORRECTIONS)) {
            Some(p) => Corrections::load(&p)?,
            None => {
                eprintln!("note: no ARM corrections file found; using Arm's tables as they are");
                Corrections::default()
            }
        }
    };
    let fe = front::run(&sources, &corrections, filter.as_deref()).context("ARM front end failed")?;
    let semantics: Vec<&crate::sema::ir::Semantics> = fe.bound.iter().filter_map(|b| b.result.as_ref().ok()).collect();
    let mut outcomes: Vec<Option<validate::ArmOutcome>> = vec![None; fe.bound.len()];
    if a.validate {
        if !harness::qemu().available() {
            bail!("qemu-aarch64 is not installed (scripts/setup installs qemu-user)");
        }
        let temp = tempfile::tempdir().context("creating a scratch directory")?;
        let cfg = harness::HarnessConfig::new(a.cc.clone(), scratch_dir(temp.path(), a.work_dir.clone())?, jobs);
        eprintln!("validating {} intrinsics under {}", semantics.len(), cfg.runner.describe());
        outcomes = validate::validate(&fe.bound, &cfg, validate::CaseCounts::default());
    }
    let rep = report::build(&fe, &outcomes);
    if a.verbose {
        for f in rep.failures.iter().chain(&rep.mismatches) {
            let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
            eprintln!("{} [{}] {}{at}", f.name, f.stage, f.reason);
        }
    }
    if a.print {
        for s in &semantics {
            println!("{}", crate::sema::print::semantics_to_string(s));
        }
    }
    print!("{}", rep.table());
    if let Some(path) = &a.report_json {
        write_json(path, &rep)?;
        eprintln!("report written to {}", path.display());
    }
    if let Some(path) = &a.semantics_json {
        write_json(path, &semantics)?;
    }
    if a.validate && rep.mismatched > 0 {
        bail!("{} ARM intrinsics disagree with the emulator", rep.mismatched);
    }
    Ok(())
}
