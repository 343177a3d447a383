//! What each instruction costs on each CPU of a set, by LLVM's own
//! scheduling models: every instruction of an ISA's grammar (clang's code
//! for its intrinsic, compiled for that CPU) and every generic LLVM
//! operation at the vector types hydride's regions use (llc's code for that
//! CPU), each priced alone by `llvm-mca -mcpu=<cpu>` as one code region.
//! `hydride gen` writes the table as `generated/<isa>/cpu-costs.json`; the
//! passes' cost model reads it.
//!
//! A [`Price`] keeps what a combination of instructions needs: reciprocal
//! throughput, latency and micro-ops alone, and the resources (ports) each
//! of its machine instructions may use, so that a sequence is priced by the
//! busiest set of ports rather than by summing its parts.

pub mod asm;
pub mod error;
pub mod generic;
pub mod mca;
pub mod price;
pub mod set;
pub mod shuffles;
pub mod table;

pub use error::CostError;
pub use price::{PortUse, Price};
pub use set::CpuSet;
pub use table::{CpuCosts, CpuTable};
