//! Similarity classes: instructions that compute the same thing up to
//! numbers (widths, element sizes, counts, offsets).

pub mod canon;
pub mod class;
pub mod cross_isa;
pub mod engine;
pub mod identity;
pub mod immediate_names;
pub mod mask;
pub mod naming;
pub mod merge;
pub mod operators;
pub mod proof;
pub mod reroll;
pub mod roles;
pub mod template;
