//! `hydride isa x86`, `hydride record x86` and what `hydride host` says of
//! this machine: Intel's guide parsed, validated on this CPU (the rest from
//! the validation record), and the record refreshed from this CPU's verdicts.

use super::host::{Host, WITHHOLD_ENV, X86_TARGETS};
use super::survey::{survey, SurveyOptions};
use super::validate::record::{Record, Run};
use super::validate::ValidationConfig;
use crate::isa::cli::{read_args, repository_path, with_args, write_json, FrontEndArgs, HostReport, RecordArgs};
use crate::isa::Progress;
use anyhow::{bail, Context, Result};
use clap::{ArgMatches, Args, Command};
use std::path::PathBuf;
use std::sync::Arc;

/// The reviewed corrections, relative to the repository.
const CORRECTIONS: &str = "isa-specs/x86/corrections.yaml";
/// The recorded hardware verdicts, relative to the repository.
const RECORD: &str = "isa-specs/x86/validation-record.json";

/// `hydride isa x86`'s options.
#[derive(Args, Debug)]
struct X86Args {
    #[command(flatten)]
    common: FrontEndArgs,
    /// Reviewed corrections to the vendor pseudocode (default: the
    /// repository's isa-specs/x86/corrections.yaml).
    #[arg(long)]
    corrections: Option<PathBuf>,
    /// Use the vendor pseudocode exactly as published.
    #[arg(long, conflicts_with = "corrections")]
    no_corrections: bool,
    /// Recorded hardware verdicts (default: the repository's
    /// isa-specs/x86/validation-record.json): what this host executes is
    /// checked against them, what it cannot execute takes the recorded
    /// verdict when its hashes match the current semantics, vectors and
    /// interpreter results, and stays unvalidated otherwise.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Use no record: what this host cannot execute is unvalidated.
    #[arg(long, conflicts_with = "record")]
    no_record: bool,
    /// Only intrinsics whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Parallel jobs for compiling and running tests (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
}

pub(crate) fn command(cmd: Command) -> Command {
    with_args::<X86Args>(cmd).about(
        "Intel SSE … AVX-512 (Intrinsics Guide XML), validated natively where this CPU has the \
         extension and by the validation record elsewhere",
    )
}

/// The record to use: the one given, else the repository's; none with --no-record.
fn load_record(given: Option<PathBuf>, no_record: bool) -> Result<Option<Arc<Record>>> {
    if no_record {
        return Ok(None);
    }
    let Some(path) = given.or_else(|| repository_path(RECORD)) else {
        bail!("no validation record at {RECORD} (give --record FILE, or --no-record)")
    };
    let record = Record::load(&path)?;
    eprintln!("validation record: {} ({} entries)", path.display(), record.entries.len());
    Ok(Some(Arc::new(record)))
}

/// The corrections to use: the one given (which must exist), else the
/// repository's; none with --no-corrections.
fn corrections_file(given: Option<PathBuf>, no_corrections: bool) -> Result<Option<PathBuf>> {
    if no_corrections {
        return Ok(None);
    }
    let found = match given {
        Some(p) if !p.exists() => bail!("corrections file {} does not exist", p.display()),
        Some(p) => Some(p),
        None => repository_path(CORRECTIONS),
    };
    if found.is_none() {
        eprintln!("note: no corrections file found; using vendor pseudocode as is");
    }
    Ok(found)
}

/// `hydride isa x86`.
pub(crate) fn run(matches: &ArgMatches, progress: &dyn Progress) -> Result<()> {
    let X86Args { common: a, corrections, no_corrections, record, no_record, filter, jobs } = read_args(matches)?;
    if !a.isa_data.exists() {
        bail!("ISA data directory {} does not exist (use --isa-data or HYDRIDE_ISA_DATA)", a.isa_data.display());
    }
    let record = if a.validate { load_record(record, no_record)? } else { None };
    let validation = a.validate.then(|| {
        let mut c =
            ValidationConfig { compiler: a.cc.clone(), work_dir: a.work_dir.clone(), record, ..Default::default() };
        if let Some(j) = jobs {
            c.jobs = j;
        }
        c
    });
    let corrections = corrections_file(corrections, no_corrections)?;
    let opts = SurveyOptions { isa_data: a.isa_data.clone(), corrections, validation, filter };
    let result = survey(&opts, &|stage: &str, done: usize, total: usize| progress.update(stage, done, total))
        .context("x86 front end failed")?;
    let report = &result.report;
    if a.verbose {
        for f in &report.failures {
            let at = f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default();
            eprintln!("{} [{}] {}{at}", f.name, f.stage, f.reason);
            if let Some(src) = &f.source_line {
                eprintln!("    | {src}");
            }
        }
    }
    if a.print {
        for (sema, _) in &result.semantics {
            println!("{}", crate::sema::print::semantics_to_string(sema));
        }
    }
    print!("{}", report.table());
    if let Some(path) = &a.report_json {
        write_json(path, report)?;
        eprintln!("report written to {}", path.display());
    }
    if let Some(path) = &a.semantics_json {
        let all: Vec<_> = result.semantics.iter().map(|(s, _)| s).collect();
        write_json(path, &all)?;
    }
    Ok(())
}

/// `hydride record x86`: this host's verdicts into the record.
pub(crate) fn refresh_record(a: &RecordArgs, progress: &dyn Progress) -> Result<()> {
    let path = a.record.clone().or_else(|| repository_path(RECORD)).unwrap_or_else(|| PathBuf::from(RECORD));
    let mut record = if path.exists() && !a.fresh { Record::load(&path)? } else { Record::default() };
    let mut cfg = ValidationConfig::default();
    if let Some(j) = a.jobs {
        cfg.jobs = j;
    }
    let opts = SurveyOptions {
        isa_data: a.isa_data.clone(),
        corrections: repository_path(CORRECTIONS),
        validation: Some(cfg),
        filter: None,
    };
    let result = survey(&opts, &|stage: &str, done: usize, total: usize| progress.update(stage, done, total))
        .context("x86 front end failed")?;
    let host = Host::get();
    let commit = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let update =
        record.update(&result.outcomes, Run { cpu: host.model.clone(), features: host.flags_string(), commit });
    for name in &update.changed {
        eprintln!("changed: {name} is now {:?} ({})", record.entries[name].verdict, host.model);
    }
    std::fs::write(&path, record.render()).with_context(|| format!("writing {}", path.display()))?;
    print!("{}", result.report.table());
    println!(
        "record {}: {} entries ({} new, {} changed, {} re-confirmed, {} dropped: no longer modelled); this host ({}) executed {} of {}",
        path.display(),
        record.entries.len(),
        update.added.len(),
        update.changed.len(),
        update.confirmed,
        update.dropped,
        host.model,
        update.added.len() + update.changed.len() + update.confirmed,
        result.outcomes.len()
    );
    Ok(())
}

/// What this x86 machine executes: CPU model, features in use (less
/// HYDRIDE_WITHHOLD_FEATURES), compiler flags for code that runs here, and
/// the target `native` means; `None` on a machine that is not x86.
pub(crate) fn host_report() -> Option<HostReport> {
    if !cfg!(target_arch = "x86_64") {
        return None;
    }
    let host = Host::get();
    let lacks: std::collections::BTreeMap<_, _> = X86_TARGETS.iter().map(|t| (*t, host.lacks_for(t))).collect();
    let llvm_name = super::host_cpu::llvm_host_name().unwrap_or_default();
    let identity = super::host_cpu::identify(&llvm_name, host);
    let corrected = identity.corrected().then_some(identity.cpu.as_str());
    let json = serde_json::json!({
        "model": host.model,
        "vendor": host.vendor,
        "cpu": identity.cpu,
        "llvm_cpu": identity.llvm_names,
        "beyond_llvm_cpu": identity.beyond_llvm,
        "features": host.features,
        "withheld": host.withheld,
        "clang_flags": host.clang_flags(corrected),
        "llc_flags": host.llc_flags(corrected),
        "x86_target": host.x86_target(),
        "lacks": lacks,
    });
    let withheld = if host.withheld.is_empty() {
        format!("none (set {WITHHOLD_ENV})")
    } else {
        host.withheld.iter().map(String::as_str).collect::<Vec<_>>().join(" ")
    };
    let tuned = if identity.corrected() {
        format!(
            "{} (LLVM's host detection names it {}, which lacks {} this host has)",
            identity.cpu,
            identity.llvm_names,
            identity.beyond_llvm.join(" ")
        )
    } else {
        format!("{} (as LLVM names it)", identity.cpu)
    };
    let text = format!(
        "cpu:        {}\ntuned for:  {tuned}\ntarget:     {} (what target=native means here)\nclang:      {}\nllc:        {}\nwithheld:   {withheld}\n",
        host.model,
        host.x86_target(),
        host.clang_flags(corrected).join(" "),
        host.llc_flags(corrected).join(" "),
    );
    Some(HostReport { json, text })
}
