//! Why a proof of two computations' equality did not go through, as the
//! provers return it: the search decides by its kind (a difference is
//! final, an unknown may yield to more budget), remarks render its text.

/// A proof that did not go through.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofFailure {
    /// Z3 found an input, where the window is defined, on which the two
    /// differ: in result lane `lane` when the proof went lane by lane.
    #[error("differs on some input{}", .lane.map(|l| format!(" in result lane {l}")).unwrap_or_default())]
    Differs { lane: Option<u32> },
    /// Z3 could not tell within the budget (its reason: time, resource
    /// limit, incompleteness).
    #[error("unknown ({0})")]
    Unknown(String),
    /// The two were not compared: their inputs, types or definedness
    /// differ, a term could not be built, or the budget ran out before a
    /// query (what, in words).
    #[error("{0}")]
    NotCompared(String),
    /// A window proved piece by piece failed in piece `piece` of `pieces`.
    #[error("{failure} (in lanes piece {piece} of {pieces})")]
    InPiece { failure: Box<ProofFailure>, piece: u32, pieces: u32 },
}

/// The three ways a proof ends without a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The solver found an input on which the program and the window differ.
    Differs,
    /// The solver gave up (time, memory or incompleteness).
    Unknown,
    /// The two could not be compared (types, definedness, shapes).
    Incomparable,
}

impl ProofFailure {
    /// How the proof ended, through pieces to the piece that failed.
    pub fn refutation(&self) -> Refutation {
        match self {
            ProofFailure::Differs { .. } => Refutation::Differs,
            ProofFailure::Unknown(_) => Refutation::Unknown,
            ProofFailure::NotCompared(_) => Refutation::Incomparable,
            ProofFailure::InPiece { failure, .. } => failure.refutation(),
        }
    }
}

impl From<String> for ProofFailure {
    fn from(why: String) -> ProofFailure {
        ProofFailure::NotCompared(why)
    }
}

impl From<&str> for ProofFailure {
    fn from(why: &str) -> ProofFailure {
        ProofFailure::NotCompared(why.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_says_what_failed_and_where() {
        assert_eq!(ProofFailure::Differs { lane: None }.to_string(), "differs on some input");
        assert_eq!(ProofFailure::Differs { lane: Some(3) }.to_string(), "differs on some input in result lane 3");
        let unknown = ProofFailure::Unknown("timeout".into());
        assert_eq!(unknown.to_string(), "unknown (timeout)");
        let piece = ProofFailure::InPiece { failure: Box::new(unknown), piece: 2, pieces: 8 };
        assert_eq!(piece.to_string(), "unknown (timeout) (in lanes piece 2 of 8)");
        assert_eq!(piece.refutation(), Refutation::Unknown);
        assert_eq!(ProofFailure::from("an input type").refutation(), Refutation::Incomparable);
    }
}
