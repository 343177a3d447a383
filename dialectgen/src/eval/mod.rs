//! Meaning of the semantics IR: one evaluator over interchangeable domains.

pub mod agreement;
pub mod builtins;
pub mod concrete;
pub mod domain;
mod expr;
pub mod linear;
pub mod machine;
pub mod smt;
pub mod typing;
pub mod value;
mod write;

pub use concrete::Concrete;
pub use domain::Domain;
pub use machine::{EvalError, Machine};
