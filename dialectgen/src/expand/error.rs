//! Why an instruction has no expansion.

use super::program::VTy;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExpandError {
    #[error("its semantics do not run on unknown arguments: {0}")]
    Eval(String),
    #[error("argument `{arg}` is {bits} bits, its operand {ty}")]
    OperandWidth { arg: String, bits: u32, ty: VTy },
    #[error("the result is {bits} bits, the op's type {ty}")]
    ResultWidth { bits: u32, ty: VTy },
    #[error("argument `{0}` is neither an operand nor a number")]
    MissingArgument(String),
    #[error("the expansion would take more than {0} ops")]
    TooLarge(usize),
    #[error("its semantics unroll to more than {0} terms")]
    TooManyTerms(usize),
    #[error("{0}")]
    Unsupported(String),
}

impl ExpandError {
    /// The reason's kind, for counts.
    pub fn kind(&self) -> &'static str {
        match self {
            ExpandError::Eval(_) => "semantics not symbolic",
            ExpandError::OperandWidth { .. } | ExpandError::ResultWidth { .. } => "type mismatch",
            ExpandError::MissingArgument(_) => "missing argument",
            ExpandError::TooLarge(_) | ExpandError::TooManyTerms(_) => "too large",
            ExpandError::Unsupported(_) => "unsupported",
        }
    }
}
