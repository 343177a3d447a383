//! Width and type inference, and the Z3 formula of an instruction.
//!
//! Both come from one symbolic run of the evaluator in the Z3 domain: every
//! expression gets its width from the exact-arithmetic rules, bit ranges must
//! have input-independent widths, and every name and helper must resolve.
//! Errors carry the pseudocode position.

use super::machine::{EvalError, Machine};
use super::smt::Smt;
use crate::sema::ir::Semantics;
use serde::Serialize;
use z3::ast::BV;

/// The inferred type of a variable at the end of the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VarType {
    pub name: String,
    /// Bit width; 0 for unbounded integers (loop counters, indices).
    pub width: u32,
    pub signed: bool,
}

/// An instruction's formula: one symbolic input per argument and the result.
pub struct Formula {
    pub inputs: Vec<BV>,
    pub output: BV,
    pub types: Vec<VarType>,
}

/// Builds the formula for `sema`, inferring every variable's type.
pub fn formula(sema: &Semantics) -> Result<Formula, EvalError> {
    let inputs: Vec<BV> = sema.args.iter().map(|a| BV::new_const(a.name.as_str(), a.width)).collect();
    let mut dom = Smt::exact();
    let (output, types) = Machine::new(&mut dom, sema).run_typed(&inputs)?;
    let types = types.into_iter().map(|(name, width, signed)| VarType { name, width, signed }).collect();
    Ok(Formula { inputs, output, types })
}

/// Type-checks `sema`: the variable types, or the first error with its location.
pub fn infer_types(sema: &Semantics) -> Result<Vec<VarType>, EvalError> {
    formula(sema).map(|f| f.types)
}

/// The formula of `sema` over the given input terms (one per argument).
pub fn formula_over(sema: &Semantics, inputs: &[BV]) -> Result<BV, EvalError> {
    let mut dom = Smt::exact();
    Machine::new(&mut dom, sema).run(inputs)
}

/// The formula of `sema` over `inputs` with multiplication and division
/// abstracted as uninterpreted functions (see [`Smt::abstracted`]).
pub fn abstract_formula_over(sema: &Semantics, inputs: &[BV]) -> Result<BV, EvalError> {
    let mut dom = Smt::abstracted();
    Machine::new(&mut dom, sema).run(inputs)
}
