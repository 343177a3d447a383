//! `hydride`: the command-line front of the dialect generator. The ISAs and
//! their front-end commands come from the registry (`dialectgen::isa::registry`).

use anyhow::{bail, Context, Result};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use dialectgen::isa::cli::{repository_path, RecordArgs};
use dialectgen::isa::registry::{self, by_name};
use dialectgen::progress::StageBars;
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "hydride", version, about = "Vendor ISA pseudocode to formal semantics and MLIR dialects")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate every generated file from the vendor data, for every
    /// registered ISA: validated semantics, similarity classes, class
    /// databases, the target dialects and autollvm, and their lit round trips.
    Gen(GenArgs),
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
    /// code that runs here, and the target `native` means.
    Host {
        /// As JSON (for scripts).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct GenArgs {
    /// Vendor data directory (one folder per ISA).
    #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
    isa_data: PathBuf,
    /// Where generated files go.
    #[arg(long, default_value = "generated")]
    out: PathBuf,
    /// Classify parsed semantics without validating them first (natively or
    /// under each ISA's emulator, as `hydride isa <isa> --validate` does).
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
    /// Also write the front ends' reports, one key per ISA (each as
    /// `hydride isa <isa> --report-json` writes it).
    #[arg(long)]
    report_json: Option<PathBuf>,
    /// Recorded hardware verdicts of an ISA validated natively (default: the
    /// repository's isa-specs/<isa>/validation-record.json): what this host
    /// executes is checked against them, what it cannot execute takes the
    /// recorded verdict when its hashes match the current semantics, vectors
    /// and interpreter results, and stays unvalidated otherwise.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Use no record: what this host cannot execute is unvalidated.
    #[arg(long, conflicts_with = "record")]
    no_record: bool,
}

/// `hydride isa <isa>`, one subcommand per registered ISA with its own options.
fn isa_command() -> clap::Command {
    let about = "Parse an ISA's vendor pseudocode into semantics and, with --validate, \
                 check every instruction by execution (see each ISA's --help)";
    registry::all().into_iter().fold(
        clap::Command::new("isa").about(about).subcommand_required(true).arg_required_else_help(true),
        |cmd, isa| cmd.subcommand(isa.front_end_command(clap::Command::new(isa.name()))),
    )
}

/// `hydride record <isa>`.
fn record_command() -> clap::Command {
    let names: Vec<&'static str> = registry::all().into_iter().map(|isa| isa.name()).collect();
    let isa = clap::Arg::new("isa").required(true).value_parser(clap::builder::PossibleValuesParser::new(names));
    RecordArgs::augment_args(clap::Command::new("record").arg(isa)).about(
        "Validate every instruction this host executes and write the verdicts, with hashes \
         of the semantics, test vectors and hardware results and this CPU's model and \
         features, into the ISA's validation record. Entries of instructions this host \
         cannot execute are kept as they are. Run it on a machine with every extension \
         after a change to semantics, vectors or corrections, and commit the file.",
    )
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let matches = Cli::command().subcommand(isa_command()).subcommand(record_command()).get_matches();
    let bars = StageBars::default();
    match matches.subcommand() {
        Some(("isa", m)) => {
            let (name, args) = m.subcommand().expect("clap requires an ISA");
            let isa = by_name(name).expect("clap accepts registered ISAs only");
            let outcome = isa.run_front_end(args, &bars);
            bars.finish();
            outcome
        }
        Some(("record", m)) => record(m, &bars),
        _ => match Cli::from_arg_matches(&matches)?.command {
            Command::Gen(args) => gen(args, &bars),
            Command::Changes { old, new } => {
                use dialectgen::changes::{Changes, Snapshot};
                print!("{}", Changes::between(&Snapshot::read(&old)?, &Snapshot::read(&new)?));
                Ok(())
            }
            Command::Host { json } => host(json),
        },
    }
}

/// `hydride record <isa>`.
fn record(m: &ArgMatches, bars: &StageBars) -> Result<()> {
    let name = m.get_one::<String>("isa").expect("required");
    let isa = by_name(name).expect("clap accepts registered ISAs only");
    let outcome = isa.refresh_record(&RecordArgs::from_arg_matches(m)?, bars);
    bars.finish();
    outcome
}

/// `hydride host`: the first registered ISA this machine executes natively.
fn host(json: bool) -> Result<()> {
    let Some(report) = registry::all().into_iter().find_map(|isa| isa.host()) else {
        bail!("this machine executes none of the registered ISAs natively")
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report.json)?);
    } else {
        print!("{}", report.text);
    }
    Ok(())
}

fn gen(a: GenArgs, bars: &StageBars) -> Result<()> {
    let templates = a.templates.or_else(|| repository_path("templates")).unwrap_or_default();
    let specs_dir = repository_path("isa-specs").unwrap_or_else(|| PathBuf::from("isa-specs"));
    let opts = dialectgen::generate::GenOptions {
        isa_data: a.isa_data,
        specs_dir,
        validate: !a.no_validate,
        record: a.record,
        no_record: a.no_record,
        cache_dir: Some(a.cache_dir),
        jobs: None,
        timeout_ms: a.timeout_ms,
        templates,
        out: a.out.clone(),
        lit_dir: a.lit_dir,
        compiler: PathBuf::from("clang-22"),
    };
    let start = std::time::Instant::now();
    let summary = dialectgen::generate::generate(&opts, bars).context("hydride gen failed");
    bars.finish();
    let summary = summary?;
    if let Some(path) = a.report_json {
        let reports: serde_json::Map<String, serde_json::Value> =
            summary.isas.iter().map(|(n, o)| (n.to_string(), o.report.clone())).collect();
        dialectgen::isa::cli::write_json(&path, &reports)?;
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
            println!("{name}: {}", lowering_summary(l));
        }
    }
    println!(
        "autollvm: {} ops; written to {} in {:.1} s",
        summary.autollvm_ops,
        a.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// One line of an ISA's LLVM lowering counts (its report's `llvm_lowering`).
fn lowering_summary(l: &serde_json::Value) -> String {
    let n = |k: &str| l[k].as_u64().unwrap_or(0);
    let movements = match l.get("movement") {
        Some(_) => format!(", {} data movements by the immediate", n("movement")),
        None => String::new(),
    };
    let templates = match l.get("generic_ir_of_immediate") {
        Some(_) => format!(", {} generic IR of the immediate", n("generic_ir_of_immediate")),
        None => String::new(),
    };
    format!(
        "LLVM lowering of {} instructions: {} intrinsic calls, {} generic IR{movements}, {} generic IR per immediate value{templates}, {} none",
        n("instructions"),
        n("intrinsic_call"),
        n("generic_ir"),
        n("generic_ir_per_immediate"),
        l["none"].as_object().map(|m| m.values().filter_map(|v| v.as_u64()).sum::<u64>()).unwrap_or(0)
    )
}
