//! `lower-to-autollvm`: replacing `arith`/`vector` dataflow by autollvm class
//! ops, each replacement proved equal by Z3.

mod apply_rules;
pub mod attr;
pub mod block;
pub mod cache;
pub mod compose;
mod cut_points;
pub mod egraph;
pub mod evaluations;
pub mod grammar;
pub mod idioms;
pub mod lane_prefix;
pub mod limits;
pub mod lower;
pub mod memo_text;
mod memoized;
pub mod narrow;
mod one_step;
mod options;
pub mod outcome;
pub mod pair_windows;
pub mod pieces;
pub mod plan;
pub mod products;
mod products_lowering;
pub mod program;
pub mod proof;
pub mod proof_failure;
pub mod proof_pieces;
pub mod rules;
pub mod screen;
pub mod search;
pub mod semantics;
pub mod semilattice;
pub mod target;
pub mod types;
pub mod unpaired;
