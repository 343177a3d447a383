//! How a pass over MLIR fails: reported where it happened, or to be
//! reported on the pass's root; and what can go wrong while a rewrite reads
//! the IR it matched or builds its replacement.

use super::build::BuildError;
use crate::synth::proof_failure::ProofFailure;
use crate::table_error::TableError;
use crate::variants::VariantError;

/// Why a rewrite pass failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Already reported, on the op it concerns.
    #[error("reported on the op it concerns")]
    Reported,
    /// To be reported on the pass's root op.
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
}

impl From<TableError> for Failure {
    fn from(e: TableError) -> Failure {
        Failure::Rewrite(e.into())
    }
}

impl From<BuildError> for Failure {
    fn from(e: BuildError) -> Failure {
        Failure::Rewrite(e.into())
    }
}

/// What went wrong while a rewrite read the IR it matched or built its
/// replacement. Each is an error, not a reason to leave IR alone: the
/// rewrite had matched and, where it proves, proved.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// A table built into the plugin did not load or lacks an entry.
    #[error(transparent)]
    Table(#[from] TableError),
    /// An autollvm op that is no instance of its variants.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// An op could not be built.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// MLIR has no such operand, result, region or attribute (its words).
    #[error(transparent)]
    Mlir(#[from] melior::Error),
    /// An op without an attribute the rewrite reads.
    #[error("{op} without {name}")]
    MissingAttribute { op: String, name: String },
    /// A value of a type hydride does not model (what the value is).
    #[error("{0} of a type hydride does not model")]
    UnmodelledType(&'static str),
    /// A data movement the rewrite lowers cannot be arranged (why).
    #[error(transparent)]
    Movement(#[from] MovementError),
    /// A proof the rewrite had made does not hold when checked again.
    #[error("piece {piece}: {why}")]
    PieceUnproved { piece: u32, why: ProofFailure },
    /// A value the rewrite erases is still read (which one).
    #[error("`{0}` of the rewritten region is still read")]
    StillRead(String),
    /// A form the rewrite built breaks its own invariant: a bug in hydride.
    #[error("{0}")]
    Invariant(&'static str),
}

/// Why a data-movement instruction is not one proved `llvm.shufflevector`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MovementError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("{instruction} with immediate {imm} moves no elements of {elem_bits} bits")]
    MovesNothing { instruction: String, imm: u32, elem_bits: u32 },
    #[error("Z3 did not prove the arrangement of {instruction} with immediate {imm} equal to its semantics")]
    Unproved { instruction: String, imm: u32 },
    #[error("{instruction} with immediate {imm} is not one shufflevector")]
    NotOneShuffle { instruction: String, imm: u32 },
}
