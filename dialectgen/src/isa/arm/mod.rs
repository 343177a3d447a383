//! AArch64 Advanced SIMD (NEON, with dot product and i8mm): Arm's intrinsics
//! table and ASL pseudocode → semantics IR, validated under qemu-aarch64.

pub mod asl;
pub mod assembly;
pub mod bind;
pub mod cli;
pub mod corrections;
pub mod cpus;
pub mod extensions;
pub mod front;
pub mod generate;
pub mod harness;
pub mod intrinsics;
pub mod lowering;
pub mod op_lowering;
pub mod report;
pub mod scope;
pub mod validate;

