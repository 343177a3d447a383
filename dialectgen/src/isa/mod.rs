//! The ISA seam: one front end per instruction set, each in its own folder
//! (spec reader, binding to semantics, test harness and runner), registered
//! in [`registry`].

pub mod arm;
pub mod x86;
