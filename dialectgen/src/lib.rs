//! hydride's offline generator: vendor ISA pseudocode → formal bitvector
//! semantics → validation against real hardware → dialect design.

pub mod changes;
pub mod classify;
pub mod cpu_costs;
pub mod design;
pub mod eval;
pub mod expand;
pub mod fnv;
pub mod gen_options;
pub mod gen_tables;
pub mod generate;
pub mod isa;
pub mod llvm_ir;
pub mod llvm_lowering;
pub mod llvm_snippet;
pub mod movement;
pub mod progress;
pub mod sema;
pub mod validate;
pub mod vendor_hash;
pub mod yaml;
