//! What every ISA's `hydride isa <name>` and `hydride record <name>` share:
//! the options all front ends take, and the files they read from and write
//! to. Each ISA folder's `cli.rs` adds its own options and runs its front
//! end; the `hydride` binary only lists the registry.

use anyhow::{Context, Result};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use std::path::{Path, PathBuf};

/// Options of every `hydride isa <name>`.
#[derive(Args, Debug, Clone)]
pub struct FrontEndArgs {
    /// Vendor data directory (holding one folder per ISA, named as `hydride isa --help` lists them).
    #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
    pub isa_data: PathBuf,
    /// Print the semantics of every instruction in readable form.
    #[arg(long)]
    pub print: bool,
    /// Execute every instruction and compare it with the interpreter (natively
    /// or under the ISA's emulator; see the ISA's description above).
    #[arg(long)]
    pub validate: bool,
    /// Write the full report (counts, every failure and exclusion) as JSON.
    #[arg(long)]
    pub report_json: Option<PathBuf>,
    /// Write the semantics of every instruction as JSON.
    #[arg(long)]
    pub semantics_json: Option<PathBuf>,
    /// C compiler used to call the instructions (clang-22, which also cross-compiles).
    #[arg(long, default_value = "clang-22")]
    pub cc: PathBuf,
    /// Keep generated test programs in this directory.
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// Print each failure.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Options of `hydride record <name>`.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// Vendor data directory.
    #[arg(long, env = "HYDRIDE_ISA_DATA", default_value = "../shared/isa-data")]
    pub isa_data: PathBuf,
    /// The record to update (default: the repository's isa-specs/<isa>/validation-record.json).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Parallel jobs for compiling and running tests (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Start from an empty record: every entry and run is this host's
    /// (entries of instructions it cannot execute are lost).
    #[arg(long)]
    pub fresh: bool,
}

/// What `hydride host` prints for the ISA this machine executes natively.
pub struct HostReport {
    /// For scripts (`hydride host --json`).
    pub json: serde_json::Value,
    /// For people, one `name: value` line each.
    pub text: String,
}

/// `cmd` with the options of `A` (an ISA's own front-end options).
pub fn with_args<A: Args>(cmd: Command) -> Command {
    A::augment_args(cmd)
}

/// The options of `A` read back from what clap parsed.
pub fn read_args<A: FromArgMatches>(matches: &ArgMatches) -> Result<A> {
    Ok(A::from_arg_matches(matches)?)
}

/// A file or directory shipped with the source tree: relative to the
/// working directory when run from the repository, else where it was built.
pub fn repository_path(relative: &str) -> Option<PathBuf> {
    let built_in = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(relative);
    [PathBuf::from(relative), built_in].into_iter().find(|p| p.exists())
}

/// Writes `value` as pretty JSON to `path`.
pub fn write_json<T: serde::Serialize + ?Sized>(path: &Path, value: &T) -> Result<()> {
    std::fs::write(path, serde_json::to_string_pretty(value)?).with_context(|| format!("writing {}", path.display()))
}

/// The scratch directory for test programs: `work_dir` when given (kept),
/// else `temp` (removed with it).
pub fn scratch_dir(temp: &Path, work_dir: Option<PathBuf>) -> Result<PathBuf> {
    let dir = work_dir.unwrap_or_else(|| temp.to_path_buf());
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}
