//! What validating one intrinsic finds, and how validation itself fails.

use super::evidence::Evidence;

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The semantics agree with the hardware: this host's, or (`by_record`
    /// names the run) the recorded verdict of a machine that executed it.
    Validated {
        evidence: Evidence,
        by_record: Option<String>,
    },
    /// The semantics disagree with the hardware, or this host with the record.
    Mismatch {
        detail: String,
        evidence: Option<Evidence>,
    },
    Failed {
        stage: &'static str,
        reason: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum ValidationError {
    #[error("cannot run the C compiler `{compiler}`: {source}")]
    Compiler { compiler: String, source: std::io::Error },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
