//! Qualcomm Hexagon HVX (128-byte vectors): semantics from Qualcomm's
//! instruction definitions as QEMU imports them, validated under
//! qemu-hexagon, cross-checked against the manual's pseudocode with Z3.

pub mod bind;
pub mod c;
pub mod cli;
pub mod data;
pub mod front;
pub mod generate;
pub mod harness;
pub mod manual;
pub mod report;
pub mod scope;
pub mod validate;
