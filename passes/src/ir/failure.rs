//! How a pass over MLIR fails: reported where it happened, or to be
//! reported on the pass's root.

/// Why a rewrite pass failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Already reported, on the op it concerns.
    #[error("reported on the op it concerns")]
    Reported,
    /// To be reported on the pass's root op.
    #[error("{0}")]
    Message(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}
