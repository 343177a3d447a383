//! The ISA seam: one front end per instruction set, each in its own folder.

pub mod arm;
