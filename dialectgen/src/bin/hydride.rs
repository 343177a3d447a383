//! `hydride`: the command-line front of the dialect generator.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use dialectgen::isa::x86::host::Host;
use dialectgen::isa::x86::survey::{survey, SurveyOptions};
use dialectgen::isa::x86::validate::record::Record;
use dialectgen::isa::x86::validate::ValidationConfig;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;

#[derive(Parser)]
#[command(name = "hydride", version, about = "Vendor ISA pseudocode to formal semantics and MLIR dialects")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Isa {
    /// Intel SSE … AVX-512 (Intrinsics Guide XML), validated natively.
    X86,
    /// AArch64 NEON with dotprod and i8mm (Arm's intrinsics table and ASL),
    /// validated under qemu-aarch64.
    Arm,
    /// Qualcomm Hexagon HVX, 128-byte vectors (Qualcomm's definitions as QEMU
    /// imports them), validated under qemu-hexagon and cross-checked against
    /// the manual's pseudocode with Z3.
    Hvx,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate every generated file from the vendor data, for every ISA
    /// (x86, ARM, Hexagon HVX): validated semantics, similarity classes, class databases,
    /// the target dialects and autollvm, and their lit round trips.
    Gen {
        /// Vendor data directory (holding x86/*.xml, arm/ and hvx/).
        #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
        isa_data: PathBuf,
        /// Where generated files go.
        #[arg(long, default_value = "generated")]
        out: PathBuf,
        /// Classify parsed semantics without validating them first (natively
        /// for x86, under qemu-aarch64 for ARM, under qemu-hexagon for HVX).
        #[arg(long)]
        no_validate: bool,
        /// Budget per Z3 proof query, in milliseconds: a deterministic resource
        /// limit of 2,000 Z3 units per ms (results do not depend on machine load)
        /// and a wall-clock cap of 10x.
        #[arg(long, default_value_t = 5000)]
        timeout_ms: u32,
        /// Directory of the tera templates (default: the repository's templates/).
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Reuse validation verdicts cached here (env HYDRIDE_CACHE_DIR).
        #[arg(long, env = "HYDRIDE_CACHE_DIR", default_value = "target/hydride-cache")]
        cache_dir: PathBuf,
        /// Where the generated lit round-trip tests go (`<dir>/Dialect/<dialect>/roundtrip.mlir`).
        #[arg(long, default_value = "lit-tests")]
        lit_dir: PathBuf,
        /// Also write the front-end report (as `hydride isa x86 --report-json`).
        #[arg(long)]
        report_json: Option<PathBuf>,
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
    },
    /// Parse an ISA's vendor pseudocode into semantics and, with --validate,
    /// check every instruction by execution: x86 on this CPU (the rest from
    /// the validation record), ARM under qemu-aarch64.
    Isa {
        /// Which instruction set.
        #[arg(value_enum)]
        isa: Isa,
        /// Vendor data directory (holding x86/*.xml, arm/ and hvx/), or one guide XML file (x86).
        #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
        isa_data: PathBuf,
        /// Reviewed corrections to the vendor data (default: the
        /// repository's isa-specs/<isa>/corrections.yaml).
        #[arg(long)]
        corrections: Option<PathBuf>,
        /// Use the vendor pseudocode exactly as published.
        #[arg(long, conflicts_with = "corrections")]
        no_corrections: bool,
        /// Print the semantics of every parsed intrinsic in readable form.
        #[arg(long)]
        print: bool,
        /// Execute every parsed intrinsic and compare with the interpreter: x86
        /// natively where this host has the extensions (the rest take the
        /// record's verdict, see --record), ARM under qemu-aarch64.
        #[arg(long)]
        validate: bool,
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
        /// HVX: also cross-check every instruction against the manual's
        /// pseudocode (hydride/HVXInsts.json), proved equal or different with
        /// Z3 (a 32-bit slice at a time where the whole is too large); each
        /// disagreement must be recorded in isa-specs/hvx/corrections.yaml.
        #[arg(long)]
        manual: bool,

        /// Write the full report (counts, per-CPUID counts, every failure) as JSON.
        #[arg(long)]
        report_json: Option<PathBuf>,
        /// Write the semantics of every parsed intrinsic as JSON.
        #[arg(long)]
        semantics_json: Option<PathBuf>,
        /// Only intrinsics whose name contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Parallel jobs for compiling and running tests (default: all cores).
        #[arg(long, short)]
        jobs: Option<usize>,
        /// C compiler used to call the intrinsics (clang-22, which also
        /// cross-compiles the ARM tests).
        #[arg(long, default_value = "clang-22")]
        cc: PathBuf,
        /// Keep generated test programs in this directory.
        #[arg(long)]
        work_dir: Option<PathBuf>,
        /// Print each failure.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Validate every intrinsic this host executes and write the verdicts,
    /// with hashes of the semantics, test vectors and hardware results and
    /// this CPU's model and features, into the validation record. Entries of
    /// intrinsics this host cannot execute are kept as they are. Run it on a
    /// machine with every extension (e.g. an AVX-512 + VNNI machine for x86)
    /// after a change to semantics, vectors or corrections, and commit the file.
    Record {
        #[arg(value_enum)]
        isa: Isa,
        /// Vendor data directory (holding x86/*.xml).
        #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
        isa_data: PathBuf,
        /// The record to update (default: the repository's isa-specs/x86/validation-record.json).
        #[arg(long)]
        record: Option<PathBuf>,
        /// Parallel jobs for compiling and running tests (default: all cores).
        #[arg(long, short)]
        jobs: Option<usize>,
        /// Start from an empty record: every entry and run is this host's
        /// (entries of intrinsics it cannot execute are lost).
        #[arg(long)]
        fresh: bool,
    },
    /// Summarize what changed between two generated trees (as `scripts/regen`
    /// does after regenerating): instructions added, removed or with changed
    /// semantics per ISA, classes split or merged, ops added, removed or renamed.
    Changes {
        /// The generated tree before (e.g. the committed `generated/`).
        #[arg(long)]
        old: PathBuf,
        /// The generated tree after.
        #[arg(long, default_value = "generated")]
        new: PathBuf,
    },
    /// Print what this machine executes as hydride sees it: CPU model,
    /// features in use (less HYDRIDE_WITHHOLD_FEATURES), compiler flags for
    /// code that runs here, and the x86 target `native` means.
    Host {
        /// As JSON (for scripts).
        #[arg(long)]
        json: bool,
    },
}

/// One progress bar per stage of long work, on stderr; where stderr is not
/// a terminal (CI logs), one line per stage as it ends, with its time.
#[derive(Default)]
struct StageBars(Mutex<Option<Stage>>);

struct Stage {
    name: String,
    bar: ProgressBar,
    started: std::time::Instant,
    done: usize,
    total: usize,
}

impl Stage {
    fn end(self) {
        self.bar.finish();
        if !std::io::stderr().is_terminal() {
            let secs = self.started.elapsed().as_secs_f64();
            eprintln!("{}: {} of {} in {secs:.1} s", self.name, self.done, self.total);
        }
    }
}

impl StageBars {
    fn update(&self, stage: &str, done: usize, total: usize) {
        let mut slot = self.0.lock().expect("progress lock");
        if slot.as_ref().map(|s| s.name.as_str()) != Some(stage) {
            if let Some(s) = slot.take() {
                s.end();
            }
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template("{msg:>9} [{bar:40}] {pos}/{len} {elapsed}")
                    .expect("template")
                    .progress_chars("=> "),
            );
            bar.set_message(stage.to_string());
            let started = std::time::Instant::now();
            *slot = Some(Stage { name: stage.to_string(), bar, started, done, total });
        }
        if let Some(s) = slot.as_mut() {
            s.bar.set_position(done as u64);
            (s.done, s.total) = (done, total);
        }
    }

    fn finish(&self) {
        if let Some(s) = self.0.lock().expect("progress lock").take() {
            s.end();
        }
    }
}

/// The reviewed corrections, relative to the repository.
const CORRECTIONS: &str = "isa-specs/x86/corrections.yaml";
/// The recorded hardware verdicts, relative to the repository.
const RECORD: &str = "isa-specs/x86/validation-record.json";

/// The record to use: the one given, else the repository's; none with --no-record.
fn load_record(given: Option<PathBuf>, no_record: bool) -> Result<Option<std::sync::Arc<Record>>> {
    if no_record {
        return Ok(None);
    }
    let path = match given.or_else(|| repository_path(RECORD)) {
        Some(p) => p,
        None => bail!("no validation record at {RECORD} (give --record FILE, or --no-record)"),
    };
    let record = Record::load(&path)?;
    eprintln!("validation record: {} ({} entries)", path.display(), record.entries.len());
    Ok(Some(std::sync::Arc::new(record)))
}

/// A file or directory shipped with the source tree: relative to the
/// working directory when run from the repository, else where it was built.
fn repository_path(relative: &str) -> Option<PathBuf> {
    let built_in = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(relative);
    [PathBuf::from(relative), built_in].into_iter().find(|p| p.exists())
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        Command::Gen {
            isa_data,
            out,
            no_validate,
            timeout_ms,
            templates,
            lit_dir,
            report_json,
            cache_dir,
            record,
            no_record,
        } => {
            let templates = templates.or_else(|| repository_path("templates")).unwrap_or_default();
            gen(
                isa_data,
                out,
                !no_validate,
                record,
                no_record,
                cache_dir,
                timeout_ms,
                &templates,
                &lit_dir,
                report_json,
            )?
        }
        Command::Isa {
            isa,
            isa_data,
            corrections,
            no_corrections,
            print,
            validate,
            report_json,
            semantics_json,
            filter,
            jobs,
            cc,
            work_dir,
            verbose,
            record,
            no_record,
            manual,
        } => {
            if isa == Isa::Hvx {
                if record.is_some()
                    || no_record
                    || corrections.is_some()
                    || no_corrections
                    || filter.is_some()
                    || jobs.is_some()
                {
                    bail!("--record, --no-record, --corrections, --filter and --jobs apply to x86 and ARM");
                }
                isa_hvx(HvxArgs {
                    isa_data,
                    validate,
                    manual,
                    report_json,
                    semantics_json,
                    print,
                    cc,
                    work_dir,
                    verbose,
                })?
            } else if manual {
                bail!("--manual applies to HVX: x86 and ARM have no second source to cross-check");
            } else if isa == Isa::Arm {
                if record.is_some() || no_record {
                    bail!("--record and --no-record apply to x86: ARM runs under qemu-aarch64 on every host and needs no record");
                }
                isa_arm(ArmArgs {
                    isa_data,
                    corrections,
                    no_corrections,
                    print,
                    validate,
                    report_json,
                    semantics_json,
                    filter,
                    jobs,
                    cc,
                    work_dir,
                    verbose,
                })?
            } else {
                if !isa_data.exists() {
                    bail!(
                        "ISA data directory {} does not exist (use --isa-data or HYDRIDE_ISA_DATA)",
                        isa_data.display()
                    );
                }
                let record = if validate { load_record(record, no_record)? } else { None };
                let validation = validate.then(|| {
                    let mut c = ValidationConfig { compiler: cc, work_dir, record, ..ValidationConfig::default() };
                    if let Some(j) = jobs {
                        c.jobs = j;
                    }
                    c
                });
                let corrections = if no_corrections {
                    None
                } else {
                    match corrections {
                        Some(p) if !p.exists() => bail!("corrections file {} does not exist", p.display()),
                        Some(p) => Some(p),
                        None => repository_path(CORRECTIONS),
                    }
                };
                if corrections.is_none() && !no_corrections {
                    eprintln!("note: no corrections file found; using vendor pseudocode as is");
                }
                let opts = SurveyOptions { isa_data, corrections, validation, filter };
                let bars = StageBars::default();
                let result = survey(&opts, &|stage: &str, done: usize, total: usize| bars.update(stage, done, total))
                    .context("x86 front end failed")?;
                bars.finish();
                let report = &result.report;
                if verbose {
                    for f in &report.failures {
                        eprintln!(
                            "{} [{}] {}{}",
                            f.name,
                            f.stage,
                            f.reason,
                            f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default()
                        );
                        if let Some(src) = &f.source_line {
                            eprintln!("    | {src}");
                        }
                    }
                }
                if print {
                    for (sema, _) in &result.semantics {
                        println!("{}", dialectgen::sema::print::semantics_to_string(sema));
                    }
                }
                print!("{}", report.table());
                if let Some(path) = report_json {
                    std::fs::write(&path, serde_json::to_string_pretty(report)?)
                        .with_context(|| format!("writing {}", path.display()))?;
                    eprintln!("report written to {}", path.display());
                }
                if let Some(path) = semantics_json {
                    let all: Vec<_> = result.semantics.iter().map(|(s, _)| s).collect();
                    std::fs::write(&path, serde_json::to_string_pretty(&all)?)
                        .with_context(|| format!("writing {}", path.display()))?;
                }
            }
        }
        Command::Record { isa: Isa::X86, isa_data, record, jobs, fresh } => {
            refresh_record(isa_data, record, jobs, fresh)?
        }
        Command::Record { isa: Isa::Hvx, .. } => {
            bail!("HVX is validated under qemu-hexagon on every host; it needs no record (run `hydride isa hvx --validate`)")
        }
        Command::Record { isa: Isa::Arm, .. } => {
            bail!("ARM is validated under qemu-aarch64 on every host; it needs no record (run `hydride isa arm --validate`)")
        }
        Command::Changes { old, new } => {
            use dialectgen::changes::{Changes, Snapshot};
            let changes = Changes::between(&Snapshot::read(&old)?, &Snapshot::read(&new)?);
            print!("{changes}");
        }
        Command::Host { json } => {
            let host = Host::get();
            let info = serde_json::json!({
                "model": host.model,
                "features": host.features,
                "withheld": host.withheld,
                "clang_flags": host.clang_flags(),
                "llc_flags": host.llc_flags(),
                "x86_target": host.x86_target(),
                "lacks": dialectgen::isa::x86::host::X86_TARGETS.iter().map(|t| (*t, host.lacks_for(t))).collect::<std::collections::BTreeMap<_, _>>(),
            });
            if json {
                println!("{}", serde_json::to_string_pretty(&info)?);
            } else {
                println!("cpu:        {}", host.model);
                println!("target:     {} (what target=native means here)", host.x86_target());
                println!("clang:      {}", host.clang_flags().join(" "));
                println!("llc:        {}", host.llc_flags().join(" "));
                let withheld: Vec<&str> = host.withheld.iter().map(String::as_str).collect();
                println!(
                    "withheld:   {}",
                    if withheld.is_empty() {
                        format!("none (set {})", dialectgen::isa::x86::host::WITHHOLD_ENV)
                    } else {
                        withheld.join(" ")
                    }
                );
            }
        }
    }
    Ok(())
}

/// The project's table of Qualcomm's helper macros, relative to the repository.
const HVX_MACROS: &str = "isa-specs/hvx/macros.yaml";
/// Corrections to Qualcomm's definitions found by execution.
const HVX_CORRECTIONS: &str = "isa-specs/hvx/definition-corrections.yaml";

struct HvxArgs {
    isa_data: PathBuf,
    validate: bool,
    manual: bool,
    report_json: Option<PathBuf>,
    semantics_json: Option<PathBuf>,
    print: bool,
    cc: PathBuf,
    work_dir: Option<PathBuf>,
    verbose: bool,
}

/// The manual's macros, as the project reads them.
const HVX_MANUAL_MACROS: &str = "isa-specs/hvx/manual-macros.yaml";
/// Disagreements with the manual, each with the source execution sides with.
const HVX_MANUAL_CORRECTIONS: &str = "isa-specs/hvx/corrections.yaml";
/// Z3 budget per manual cross-check query.
const HVX_MANUAL_BUDGET_MS: u32 = 2000;

/// `hydride isa hvx`: translate, (with --validate) run under qemu-hexagon,
/// (with --manual) cross-check against the manual.
fn isa_hvx(a: HvxArgs) -> Result<()> {
    let HvxArgs { isa_data, validate, manual, report_json, semantics_json, print, cc, work_dir, verbose } = a;
    use dialectgen::isa::hvx::{c::macros::MacroTable, data::HvxSources, front, harness, report};
    let sources = HvxSources::under(&isa_data);
    if !sources.definitions.exists() {
        bail!("no HVX definitions at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.definitions.display());
    }
    let table = repository_path(HVX_MACROS).context("isa-specs/hvx/macros.yaml not found (run from the repository)")?;
    let macros = MacroTable::load(&table, Some("f"))?;
    let corrections = match repository_path(HVX_CORRECTIONS) {
        Some(p) => front::load_corrections(&p)?,
        None => Vec::new(),
    };
    let fe = front::run(&sources, &macros, &corrections).context("HVX front end failed")?;
    let mut outcomes = vec![None; fe.in_scope.len()];
    if validate {
        if !harness::qemu().available() {
            bail!("qemu-hexagon is not installed (scripts/setup installs qemu-user)");
        }
        let temp = tempfile::tempdir().context("creating a scratch directory")?;
        let dir = work_dir.unwrap_or_else(|| temp.path().to_path_buf());
        std::fs::create_dir_all(&dir)?;
        let cfg = harness::HarnessConfig::new(cc, dir);
        let n = fe.in_scope.iter().filter(|t| t.result.is_ok()).count();
        eprintln!("validating {n} HVX instructions under {}", cfg.runner.describe());
        outcomes = dialectgen::isa::hvx::validate::validate(&fe.in_scope, &fe.info, &cfg);
    }
    let mut rep = report::build(&fe, &outcomes);
    if manual {
        rep.manual = Some(serde_json::to_value(hvx_manual_cross_check(&sources, &fe, verbose)?)?);
    }
    if verbose {
        for f in &rep.faults {
            eprintln!("{f}");
        }
        for m in rep.mismatches.iter().chain(&rep.not_run_list) {
            eprintln!("{} [{}] {}", m.tag, m.stage, m.reason);
        }
    }
    if print {
        for t in &fe.in_scope {
            if let Ok(s) = &t.result {
                println!("{}", dialectgen::sema::print::semantics_to_string(s));
            }
        }
    }
    print!("{}", rep.table());
    if let Some(path) = report_json {
        std::fs::write(&path, serde_json::to_string_pretty(&rep)?)
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("report written to {}", path.display());
    }
    if let Some(path) = semantics_json {
        let all: Vec<_> = fe.in_scope.iter().filter_map(|t| t.result.as_ref().ok()).collect();
        std::fs::write(&path, serde_json::to_string_pretty(&all)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if validate && rep.mismatched > 0 {
        bail!("{} HVX instructions disagree with the emulator", rep.mismatched);
    }
    Ok(())
}

/// The manual cross-check of `hydride isa hvx --manual`, with its summary on stderr.
fn hvx_manual_cross_check(
    sources: &dialectgen::isa::hvx::data::HvxSources,
    fe: &dialectgen::isa::hvx::front::FrontEnd,
    verbose: bool,
) -> Result<dialectgen::isa::hvx::manual::CrossCheck> {
    use dialectgen::isa::hvx::{data, manual};
    if !sources.manual.exists() {
        bail!("no HVX manual pseudocode at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.manual.display());
    }
    let macros_path = repository_path(HVX_MANUAL_MACROS)
        .context("isa-specs/hvx/manual-macros.yaml not found (run from the repository)")?;
    let macros = manual::manual_macros(&macros_path)?;
    let corrections = match repository_path(HVX_MANUAL_CORRECTIONS) {
        Some(p) => manual::read_corrections(&p)?,
        None => Vec::new(),
    };
    let entries = data::read_manual(&sources.manual)?;
    eprintln!("cross-checking {} manual entries with Z3", entries.len());
    let bar = ProgressBar::new(entries.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("manual {bar:30} {pos}/{len} {msg}").expect("a valid progress template"),
    );
    let check = manual::cross_check(fe, &entries, &macros, &corrections, HVX_MANUAL_BUDGET_MS, &|done, total, tag| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(tag.to_string());
    });
    bar.finish_and_clear();
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

struct ArmArgs {
    isa_data: PathBuf,
    corrections: Option<PathBuf>,
    no_corrections: bool,
    print: bool,
    validate: bool,
    report_json: Option<PathBuf>,
    semantics_json: Option<PathBuf>,
    filter: Option<String>,
    jobs: Option<usize>,
    cc: PathBuf,
    work_dir: Option<PathBuf>,
    verbose: bool,
}

/// The reviewed corrections to Arm's table, relative to the repository.
const ARM_CORRECTIONS: &str = "isa-specs/arm/corrections.yaml";

/// `hydride isa arm`: bind, translate and (with --validate) run under qemu-aarch64.
fn isa_arm(a: ArmArgs) -> Result<()> {
    use dialectgen::isa::arm::{corrections::Corrections, front, report, validate};
    let sources = front::ArmSources::under(&a.isa_data);
    if !sources.intrinsics.exists() {
        bail!("no ARM intrinsics table at {} (use --isa-data or HYDRIDE_ISA_DATA)", sources.intrinsics.display());
    }
    let corrections = if a.no_corrections {
        Corrections::default()
    } else {
        match a.corrections.or_else(|| repository_path(ARM_CORRECTIONS)) {
            Some(p) => Corrections::load(&p)?,
            None => {
                eprintln!("note: no ARM corrections file found; using Arm's tables as they are");
                Corrections::default()
            }
        }
    };
    let fe = front::run(&sources, &corrections, a.filter.as_deref()).context("ARM front end failed")?;
    let with_sema: Vec<(usize, &dialectgen::isa::arm::intrinsics::Intrinsic, &dialectgen::sema::ir::Semantics)> =
        fe.bound.iter().enumerate().filter_map(|(k, b)| b.result.as_ref().ok().map(|s| (k, &b.intrinsic, s))).collect();
    let mut outcomes: Vec<Option<validate::ArmOutcome>> = vec![None; fe.bound.len()];
    if a.validate {
        let temp = tempfile::tempdir().context("creating a scratch directory")?;
        let cfg = arm_harness_config(temp.path(), a.cc, a.jobs, a.work_dir)?;
        eprintln!("validating {} intrinsics under {}", with_sema.len(), cfg.runner.describe());
        outcomes = validate::validate(&fe.bound, &cfg, validate::CaseCounts::default());
    }
    let rep = report::build(&fe, &outcomes);
    if a.verbose {
        for f in rep.failures.iter().chain(&rep.mismatches) {
            eprintln!(
                "{} [{}] {}{}",
                f.name,
                f.stage,
                f.reason,
                f.location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default()
            );
        }
    }
    if a.print {
        for (_, _, s) in &with_sema {
            println!("{}", dialectgen::sema::print::semantics_to_string(s));
        }
    }
    print!("{}", rep.table());
    if let Some(path) = a.report_json {
        std::fs::write(&path, serde_json::to_string_pretty(&rep)?)
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("report written to {}", path.display());
    }
    if let Some(path) = a.semantics_json {
        let all: Vec<_> = with_sema.iter().map(|(_, _, s)| *s).collect();
        std::fs::write(&path, serde_json::to_string_pretty(&all)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if a.validate && rep.mismatched > 0 {
        bail!("{} ARM intrinsics disagree with the emulator", rep.mismatched);
    }
    Ok(())
}

/// Compiles with clang-22 for AArch64 and runs under qemu-aarch64.
/// Test programs go to `work_dir` when given (kept), else to `temp`.
fn arm_harness_config(
    temp: &std::path::Path,
    clang: PathBuf,
    jobs: Option<usize>,
    work_dir: Option<PathBuf>,
) -> Result<dialectgen::isa::arm::harness::HarnessConfig> {
    if !dialectgen::isa::arm::harness::qemu().available() {
        bail!("qemu-aarch64 is not installed (scripts/setup installs qemu-user)");
    }
    let scratch = work_dir.unwrap_or_else(|| temp.to_path_buf());
    std::fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    Ok(dialectgen::isa::arm::harness::HarnessConfig::new(clang, scratch, jobs))
}

/// `hydride record x86`: this host's verdicts into the record.
fn refresh_record(isa_data: PathBuf, path: Option<PathBuf>, jobs: Option<usize>, fresh: bool) -> Result<()> {
    use dialectgen::isa::x86::validate::record::Run;
    let path = path.or_else(|| repository_path(RECORD)).unwrap_or_else(|| PathBuf::from(RECORD));
    let mut record = if path.exists() && !fresh { Record::load(&path)? } else { Record::default() };
    let mut cfg = ValidationConfig::default();
    if let Some(j) = jobs {
        cfg.jobs = j;
    }
    let opts =
        SurveyOptions { isa_data, corrections: repository_path(CORRECTIONS), validation: Some(cfg), filter: None };
    let bars = StageBars::default();
    let result = survey(&opts, &|stage: &str, done: usize, total: usize| bars.update(stage, done, total))
        .context("x86 front end failed")?;
    bars.finish();
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

#[allow(clippy::too_many_arguments)]
fn gen(
    isa_data: PathBuf,
    out: PathBuf,
    validate: bool,
    record: Option<PathBuf>,
    no_record: bool,
    cache_dir: PathBuf,
    timeout_ms: u32,
    templates: &std::path::Path,
    lit_dir: &std::path::Path,
    report_json: Option<PathBuf>,
) -> Result<()> {
    let specs_dir = repository_path("isa-specs").unwrap_or_else(|| PathBuf::from("isa-specs"));
    let opts = dialectgen::generate::GenOptions {
        isa_data,
        specs_dir,
        validate,
        record,
        no_record,
        cache_dir: Some(cache_dir),
        jobs: None,
        timeout_ms,
        templates: templates.to_path_buf(),
        out: out.clone(),
        lit_dir: lit_dir.to_path_buf(),
        compiler: PathBuf::from("clang-22"),
    };
    let bars = StageBars::default();
    let start = std::time::Instant::now();
    let summary = dialectgen::generate::generate(&opts, &|stage: &str, done: usize, total: usize| {
        bars.update(stage, done, total)
    })
    .context("hydride gen failed")?;
    bars.finish();
    if let Some(path) = report_json {
        let reports: serde_json::Map<String, serde_json::Value> =
            summary.isas.iter().map(|(n, o)| (n.to_string(), o.report.clone())).collect();
        std::fs::write(&path, serde_json::to_string_pretty(&reports)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    for (name, o) in &summary.isas {
        let st = &o.stats;
        println!(
            "{name}: {} instructions, {} classes, {} unproved, {} rejected; {} ops in {}",
            st.instructions,
            st.classes,
            st.unproved_pairs,
            st.rejected.len(),
            o.dialect.ops.len(),
            o.dialect.name
        );
        if let Some(l) = o.report.get("llvm_lowering") {
            let n = |k: &str| l[k].as_u64().unwrap_or(0);
            let movements = match l.get("movement") {
                Some(_) => format!(", {} data movements by the immediate", n("movement")),
                None => String::new(),
            };
            let templates = match l.get("generic_ir_of_immediate") {
                Some(_) => format!(", {} generic IR of the immediate", n("generic_ir_of_immediate")),
                None => String::new(),
            };
            println!(
                "{name}: LLVM lowering of {} instructions: {} intrinsic calls, {} generic IR{movements}, {} generic IR per immediate value{templates}, {} none",
                n("instructions"),
                n("intrinsic_call"),
                n("generic_ir"),
                n("generic_ir_per_immediate"),
                l["none"].as_object().map(|m| m.values().filter_map(|v| v.as_u64()).sum::<u64>()).unwrap_or(0)
            );
        }
    }
    println!(
        "autollvm: {} ops; written to {} in {:.1} s",
        summary.autollvm_ops,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
