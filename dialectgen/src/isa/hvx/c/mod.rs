//! The C subset of Qualcomm's HVX definitions and of the manual's
//! pseudocode: tokens, macro expansion, syntax, C types and translation to
//! the semantics IR.

pub mod ast;
pub mod ctype;
pub mod lexer;
pub mod macros;
pub mod parser;
pub mod translate;
pub mod wraps;
