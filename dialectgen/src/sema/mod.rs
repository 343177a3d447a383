//! The semantics IR and its printer.

pub mod ir;
pub mod order;
pub mod print;
pub mod visit;
