//! The semantics IR and its printer.

pub mod ir;
pub mod print;
pub mod visit;
