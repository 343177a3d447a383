//! `lower-to-autollvm`: replacing `arith`/`vector` dataflow by autollvm class
//! ops, each replacement proved equal by Z3.

pub mod attr;
pub mod block;
pub mod cache;
pub mod compose;
pub mod grammar;
pub mod lower;
pub mod narrow;
pub mod pieces;
pub mod program;
pub mod proof;
pub mod search;
pub mod semantics;
pub mod target;
pub mod types;
