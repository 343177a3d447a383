//! Arm's ASL: lexer, parser, the instruction and library files, and the
//! partial evaluator that turns decode + execute blocks into semantics IR.

pub mod ast;
pub mod instrs;
pub mod lexer;
pub mod library;
pub mod parser;
pub mod translate;
pub mod value;
