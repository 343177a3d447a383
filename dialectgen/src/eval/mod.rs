//! Meaning of the semantics IR: one evaluator over interchangeable domains.

pub mod agreement;
pub mod builtins;
pub mod smt;
pub mod typing;
pub mod concrete;
pub mod domain;
pub mod linear;
pub mod machine;
pub mod value;

pub use concrete::Concrete;
pub use domain::Domain;
pub use machine::{EvalError, Machine};
