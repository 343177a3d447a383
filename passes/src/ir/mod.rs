//! hydride's passes on MLIR's C API through melior: what they read from the
//! IR ([`read`]), the ops they create ([`build`]), and one module per pass;
//! [`rewrites`] lists the rewrites `lower-to-autollvm` is made of.
//! The C++ shim only registers them (`cpp/shim.cpp`).

pub mod build;
pub mod column_extrema;
pub mod contract_elementwise;
pub mod deinterleaved_extrema;
pub mod divide_by_constant;
pub mod equal_weights;
pub mod expand;
pub mod even_odd;
pub mod failure;
pub mod in_place_widening;
pub mod movement;
pub mod parse;
pub mod piece_order;
pub mod private_extensions;
pub mod raw;
pub mod read;
pub mod rewrites;
pub mod split_contract;
pub mod sum_as_dot;
pub mod synthesize;
pub mod to_llvm;
pub mod to_target;
