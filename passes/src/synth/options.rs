//! The options `lower-to-autollvm` lowers a block with: the memo, the
//! search's limits, the largest window and the block's time.

use super::cache::Cache;
use super::grammar::Target;
use super::search::Limits;

/// What `lower-to-autollvm` searches windows with, and what it counts.
pub struct Options {
    pub cache: Cache,
    pub limits: Limits,
    /// Largest window, in ops.
    pub max_ops: usize,
    /// Largest cone searched whole (0: none; see `lower::lower_block`).
    pub cone_ops: usize,
    /// Wall-clock limit per block, in ms: once spent, the block's remaining
    /// windows are left unchanged, and a window's search stops there too.
    pub block_ms: u64,
    /// Windows an offline rule has given a program (not the memo, not the search).
    pub by_rules: std::sync::atomic::AtomicUsize,
}

/// A `target` or `cpu` option naming nothing known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error(transparent)]
    Target(#[from] super::target::UnknownTarget),
    #[error(transparent)]
    Cpu(#[from] super::target::UnknownCpu),
}

impl Options {
    /// The options `lower-to-autollvm` was given: target name, Z3 budget
    /// per proof, wall-clock limits per window and per block, largest
    /// window, two-step budget, largest cone.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        target: &str,
        cpu: &str,
        proof_ms: u32,
        window_ms: u64,
        block_ms: u64,
        max_ops: usize,
        two_step_budget: usize,
        cone_ops: usize,
        cache: Cache,
    ) -> Result<Options, OptionError> {
        let target = Target::parse(target)?;
        let limits = Limits {
            target,
            cpu: target.cpu(cpu)?,
            proof_ms,
            window_ms,
            evaluations: two_step_budget,
            ..Limits::default()
        };
        Ok(Options { cache, limits, max_ops: max_ops.max(1), cone_ops, block_ms, by_rules: Default::default() })
    }
}
