//! Reference lowerings: an instruction's semantics as portable `vector` and
//! `arith` ops.
//!
//! The semantics run over [`terms::Terms`], which unrolls them into one
//! term per result element; [`vectorize`] turns elements of one shape into
//! one op over all of them, moves between lanes into shuffles and slices,
//! and sums per element into reductions. Immediates are numbers of the
//! semantics, so an expansion is made for the values an op carries.

mod binary;
pub mod check;
mod error;
pub mod program;
pub mod report;
pub mod run;
pub mod terms;
mod vectorize;

pub use error::ExpandError;
pub use program::{ExpandedOp, Expansion, VTy, ValueRef};

use crate::eval::Machine;
use crate::sema::ir::Semantics;
use num_bigint::BigUint;

/// What an argument of the semantics is in the op: its operand `k`, or a
/// number (an immediate attribute).
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    Operand(usize),
    Number(BigUint),
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The expansion of `sem` for an op whose operands have `operand_types`
/// and whose result is `result`: `inputs` says what each argument of `sem`
/// is.
pub fn expand(
    sem: &Semantics,
    inputs: &[Input],
    operand_types: &[VTy],
    result: &VTy,
) -> Result<Expansion, ExpandError> {
    let mut terms = terms::Terms::default();
    let mut args = Vec::new();
    let mut operand_of = Vec::new();
    for (k, arg) in sem.args.iter().enumerate() {
        match inputs.get(k) {
            Some(Input::Operand(i)) => {
                let ty = operand_types.get(*i).ok_or_else(|| ExpandError::MissingArgument(arg.name.clone()))?;
                if ty.bits() != arg.width {
                    return Err(ExpandError::OperandWidth { arg: arg.name.clone(), bits: arg.width, ty: ty.clone() });
                }
                args.push(terms.input(k, arg.width));
                operand_of.push(Some(*i));
            }
            Some(Input::Number(v)) => {
                args.push(terms.lit(v.clone(), arg.width));
                operand_of.push(None);
            }
            None => return Err(ExpandError::MissingArgument(arg.name.clone())),
        }
    }
    let r = Machine::new(&mut terms, sem).run(&args).map_err(|e| ExpandError::Eval(e.to_string()))?;
    if terms.overflowed {
        return Err(ExpandError::TooManyTerms(terms::MAX_TERMS));
    }
    if terms.width(r) != result.bits() {
        return Err(ExpandError::ResultWidth { bits: terms.width(r), ty: result.clone() });
    }
    let pieces = terms.pieces(r);
    let g = pieces.iter().fold(result.elem, |g, &p| gcd(g, terms.width(p)));
    let lanes: Vec<terms::TermId> = pieces
        .iter()
        .flat_map(|&p| (0..terms.width(p) / g).map(move |j| (p, j)))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(p, j)| terms.slice(p, (j + 1) * g - 1, j * g))
        .collect();
    let mut v = vectorize::Vectorizer::new(&terms, operand_types.to_vec(), operand_of);
    let lanes_value = v.vectorize(&lanes)?;
    let value = fit(&mut v, lanes_value, result)?;
    let mut expansion = v.program;
    expansion.result = Some(value);
    Ok(expansion)
}

/// `v`, a vector of the result's bits, as the result's type.
fn fit(v: &mut vectorize::Vectorizer, value: ValueRef, result: &VTy) -> Result<ValueRef, ExpandError> {
    let have = v.ty(value);
    let flat = VTy::vector(result.lanes().max(1), result.elem);
    let mut value = value;
    if have != flat {
        value = v.push("vector.bitcast", vec![value], vec![], flat.clone())?;
    }
    if result.dims.is_empty() {
        let attrs = vec![("static_position", "array<i64: 0>".to_string())];
        return v.push("vector.extract", vec![value], attrs, result.clone());
    }
    if result.dims.len() > 1 {
        return v.push("vector.shape_cast", vec![value], vec![], result.clone());
    }
    Ok(value)
}
