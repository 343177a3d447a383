//! The ISA seam. Each instruction set is a folder here holding its front
//! end (spec reader, binding to semantics), its test harness and runner,
//! and what it contributes to `hydride gen`; [`registry::all`] lists them. The
//! rest of the generator (semantics IR, evaluator, classifier, dialect
//! design, validation vectors) speaks only of instructions and classes.

pub mod arm;
pub mod cli;
pub mod front_end;
pub mod hvx;
pub mod registry;
pub mod x86;

use crate::classify::engine::{ClassStats, SimilarityClass};
use crate::design::DialectDesign;
use crate::gen_options::{GenError, GenOptions};
use crate::sema::ir::Semantics;
use front_end::FrontEnd;

pub use crate::progress::Progress;

/// What `hydride gen` made of one ISA.
pub struct IsaOutput {
    /// The ISA's validated semantics, what its classes are made of.
    pub semantics: Vec<Semantics>,
    pub classes: Vec<SimilarityClass>,
    pub stats: ClassStats,
    /// The target dialect, one op per instruction.
    pub dialect: DialectDesign,
    /// Its front end's report, as JSON.
    pub report: serde_json::Value,
    /// Files under the generated directory (relative path, contents).
    pub files: Vec<(String, String)>,
    /// What each op of the target dialect becomes in LLVM (`<isa>/llvm-lowering.json`).
    pub lowerings: std::collections::BTreeMap<String, crate::llvm_lowering::OpLowering>,
}

/// One instruction set.
pub trait Isa: Sync {
    /// `x86`, `arm`, `hvx`: the folder name under `generated/`, `isa-specs/` and the lit tests.
    fn name(&self) -> &'static str;
    /// Reads the vendor data and validates: what `hydride gen` classifies,
    /// designs the dialect of and lowers ([`FrontEnd`]).
    fn front_end(&self, opts: &GenOptions, progress: &dyn Progress) -> Result<Box<dyn FrontEnd>, GenError>;
    /// `hydride isa <name>`: `cmd` with the front end's description and options
    /// (its own, besides [`cli::FrontEndArgs`]).
    fn front_end_command(&self, cmd: clap::Command) -> clap::Command;
    /// Runs `hydride isa <name>` (the front end alone, with its report) on
    /// what clap parsed with [`Isa::front_end_command`]'s options.
    fn run_front_end(&self, matches: &clap::ArgMatches, progress: &dyn Progress) -> anyhow::Result<()>;
    /// `hydride record <name>`: this host's validation verdicts into the ISA's
    /// validation record. An ISA validated by emulation on every host has none.
    fn refresh_record(&self, _args: &cli::RecordArgs, _progress: &dyn Progress) -> anyhow::Result<()> {
        anyhow::bail!(
            "{0} is validated under emulation on every host; it needs no record (run `hydride isa {0} --validate`)",
            self.name()
        )
    }
    /// What `hydride host` says of this machine, when it executes this ISA natively.
    fn host(&self) -> Option<cli::HostReport> {
        None
    }
}
