//! What x86 validation is asked to do: the compiler and its flags, the
//! cases per intrinsic, the batches, the cache and the record.

use super::record::Record;
use crate::isa::x86::host::Host;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct ValidationConfig {
    /// C compiler with `immintrin.h` (clang-22).
    pub compiler: PathBuf,
    pub compiler_flags: Vec<String>,
    pub jobs: usize,
    /// Random cases for intrinsics without an immediate (edge cases are added).
    pub random_cases: usize,
    /// Cases per immediate value.
    pub cases_per_immediate: usize,
    /// Intrinsics per compiled program.
    pub batch_size: usize,
    /// Keep the generated C programs here (a temporary directory otherwise).
    pub work_dir: Option<PathBuf>,
    /// Reuse verdicts stored here by earlier runs (and store new ones).
    pub cache_dir: Option<PathBuf>,
    /// Recorded hardware verdicts: checked against what this host finds, and
    /// taken for what it cannot execute.
    pub record: Option<std::sync::Arc<Record>>,
    /// What this machine executes (default: [`Host::get`]); `compiler_flags`
    /// must not let the compiler use more.
    pub host: Host,
}

impl Default for ValidationConfig {
    /// The defaults for this machine ([`Host::get`]).
    fn default() -> Self {
        ValidationConfig::for_host(Host::get().clone())
    }
}

impl ValidationConfig {
    /// The defaults for `host`: compiled for what it executes.
    pub fn for_host(host: Host) -> ValidationConfig {
        // Validation runs code, whatever it is tuned for: `-march=native`.
        ValidationConfig {
            compiler: PathBuf::from("clang-22"),
            compiler_flags: ["-O1".to_string(), "-w".to_string()].into_iter().chain(host.clang_flags(None)).collect(),
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            random_cases: 48,
            cases_per_immediate: 4,
            batch_size: 64,
            work_dir: None,
            cache_dir: None,
            record: None,
            host,
        }
    }
}
