//! `hydride isa hvx`: translate Qualcomm's definitions, (with --validate)
//! run them under qemu-hexagon, (with --manual) cross-check them against the
//! manual's pseudocode with Z3.

use super::c::macros::MacroTable;
use super::data::{self, HvxSources};
use super::{front, harness, manual, report};
use crate::isa::cli::{read_args, repository_path, scratch_dir, with_args, write_json, FrontEndArgs};
use crate::isa::Progress;
use anyhow::{bail, Context, Result};
use clap::{ArgMatches, Args, Command};

/// The project's table of Qualcomm's helper macros, relative to the repository.
const MACROS: &str = "isa-specs/hvx/macros.yaml";
/// Corrections to Qualcomm's definitions found by execution.
const DEFINITION_CORRECTIONS: &str = "isa-specs/hvx/definition-corrections.yaml";
/// The manual's macros, as the project reads them.
const MANUAL_MACROS: &str = "isa-specs/hvx/manual-macros.yaml";
/// Disagreements with the manual, each with the source execution sides with.
const MANUAL_CORRECTIONS: &str = "isa-specs/hvx/corrections.yaml";
/// Z3 budget per manual cross-check query.
const MANUAL_BUDGET_MS: u32 = 2000;

/// `hydride isa hvx`'s options.
#[derive(Args, Debug)]
struct HvxArgs {
    #[command(flatten)]
    common: FrontEndArgs,
    /// Also cross-check every instruction against the manual's pseudocode
    /// (hydride/HVXInsts.json), proved equal or different with Z3 (a 32-bit
    /// slice at a time where the whole is too large); each disagreement must
    /// be recorded in isa-specs/hvx/corrections.yaml.
    #[arg(long)]
    manual: bool,
}

pub(crate) fn command(cmd: Command) -> Command {
    with_args::<HvxArgs>(cmd).about(
        "Qualcomm Hexagon HVX, 128-byte vectors (Qualcomm's definitions as QEMU imports them), \
         validated under qemu-hexagon and cross-checked against the manual's pseudocode with Z3",
    )
}

/// `hydride isa hvx`.
pub(crate) fn run(matches: &ArgMatches, progress: &dyn Progress) -> Result<()> {
    let HvxArgs { common: a, manual } = read_args(matches)?;
    let sources = HvxSources::under(&a.isa_data);
    if !sources.definitions.exists() {
        bail!("no HVX definitions at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.definitions.display());
    }
    let table = repository_path(MACROS).context("isa-specs/hvx/macros.yaml not found (run from the repository)")?;
    let macros = MacroTable::load(&table, Some("f"))?;
    let corrections = match repository_path(DEFINITION_CORRECTIONS) {
        Some(p) => front::load_corrections(&p)?,
        None => Vec::new(),
    };
    let fe = front::run(&sources, &macros, &corrections).context("HVX front end failed")?;
    let mut outcomes = vec![None; fe.in_scope.len()];
    if a.validate {
        if !harness::qemu().available() {
            bail!("qemu-hexagon is not installed (scripts/setup installs qemu-user)");
        }
        let temp = tempfile::tempdir().context("creating a scratch directory")?;
        let cfg = harness::HarnessConfig::new(a.cc.clone(), scratch_dir(temp.path(), a.work_dir.clone())?);
        let n = fe.in_scope.iter().filter(|t| t.result.is_ok()).count();
        eprintln!("validating {n} HVX instructions under {}", cfg.runner.describe());
        outcomes = super::validate::validate(&fe.in_scope, &fe.info, &cfg);
    }
    let mut rep = report::build(&fe, &outcomes);
    if manual {
        rep.manual = Some(serde_json::to_value(manual_cross_check(&sources, &fe, a.verbose, progress)?)?);
    }
    if a.verbose {
        for f in &rep.faults {
            eprintln!("{f}");
        }
        for m in rep.mismatches.iter().chain(&rep.not_run_list) {
            eprintln!("{} [{}] {}", m.tag, m.stage, m.reason);
        }
    }
    let semantics: Vec<_> = fe.in_scope.iter().filter_map(|t| t.result.as_ref().ok()).collect();
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
        bail!("{} HVX instructions disagree with the emulator", rep.mismatched);
    }
    Ok(())
}

/// The manual cross-check of `hydride isa hvx --manual`, with its summary on stderr.
fn manual_cross_check(
    sources: &HvxSources,
    fe: &front::FrontEnd,
    verbose: bool,
    progress: &dyn Progress,
) -> Result<manual::CrossCheck> {
    if !sources.manual.exists() {
        bail!("no HVX manual pseudocode at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.manual.display());
    }
    let macros_path = repository_path(MANUAL_MACROS)
        .context("isa-specs/hvx/manual-macros.yaml not found (run from the repository)")?;
    let macros = manual::manual_macros(&macros_path)?;
    let corrections = match repository_path(MANUAL_CORRECTIONS) {
        Some(p) => manual::read_corrections(&p)?,
        None => Vec::new(),
    };
    let entries = data::read_manual(&sources.manual)?;
    eprintln!("cross-checking {} manual entries with Z3", entries.len());
    let check = manual::cross_check(fe, &entries, &macros, &corrections, MANUAL_BUDGET_MS, &|done, total, _tag| {
        progress.update("manual", done, total)
    });
    for e in &check.entries {
        use manual::ManualVerdict::*;
        match &e.verdict {
            Agreed { .. } => {}
            Disagreed { summary, recorded, correction, .. } => match (recorded, correction) {
                (true, Some(c)) if verbose => eprintln!("manual: {} disagrees ({summary}): recorded: {c}", e.tag),
                (true, _) => {}
                _ => eprintln!(
                    "manual: {} disagrees and isa-specs/hvx/corrections.yaml does not record it: {summary}",
                    e.tag
                ),
            },
            Unknown { reason } if verbose => eprintln!("manual: {} unknown: {reason}", e.tag),
            Unparsed { fault } if verbose => eprintln!("manual: {fault}"),
            _ => {}
        }
    }
    for tag in &check.stale_corrections {
        eprintln!(
            "manual: {tag} is recorded as a disagreement in isa-specs/hvx/corrections.yaml but does not disagree"
        );
    }
    eprintln!(
        "manual cross-check: {} agreed, {} disagreed ({} recorded), {} unknown, {} unparsed; {} entries without QEMU semantics",
        check.agreed,
        check.disagreed,
        check.disagreed - check.unrecorded,
        check.unknown,
        check.unparsed,
        check.no_qemu.len()
    );
    Ok(check)
}
