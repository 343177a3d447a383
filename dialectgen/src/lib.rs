//! hydride's offline generator: vendor ISA pseudocode → formal bitvector
//! semantics → validation against real hardware → dialect design.

pub mod eval;
pub mod sema;
pub mod x86;
pub mod report;
pub mod validate;
