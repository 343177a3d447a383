//! Cross-check of the two domains: the Z3 formula, with inputs substituted,
//! must simplify to the interpreter's result.

use super::domain::Domain;
use super::machine::{EvalError, Machine};
use super::smt::Smt;
use super::typing::formula;
use super::Concrete;
use crate::sema::ir::Semantics;
use num_bigint::BigUint;
use z3::ast::{Ast, BV};

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AgreementError {
    #[error(transparent)]
    Eval(#[from] EvalError),
    #[error("{name}: the formula does not reduce to a constant for inputs {inputs:?}")]
    NotConstant { name: String, inputs: Vec<String> },
    #[error("{name}: formula gives {smt:#x}, interpreter {concrete:#x} for inputs {inputs:?}")]
    Disagree { name: String, smt: BigUint, concrete: BigUint, inputs: Vec<String> },
}

/// Checks every input vector in `cases`; returns how many were compared.
pub fn check_agreement(sema: &Semantics, cases: &[Vec<BigUint>]) -> Result<usize, AgreementError> {
    let f = formula(sema)?;
    let mut smt = Smt::exact();
    for args in cases {
        let literals: Vec<BV> = sema.args.iter().zip(args).map(|(a, v)| smt.literal(v, a.width)).collect();
        let pairs: Vec<(&BV, &BV)> = f.inputs.iter().zip(&literals).collect();
        let reduced = f.output.substitute(&pairs).simplify();
        let inputs = || args.iter().map(|v| format!("{v:#x}")).collect::<Vec<_>>();
        let Some(from_smt) = smt.as_literal(&reduced, sema.result.width) else {
            return Err(AgreementError::NotConstant { name: sema.name.clone(), inputs: inputs() });
        };
        let concrete = Machine::new(&mut Concrete, sema).run(args)?;
        if from_smt != concrete {
            return Err(AgreementError::Disagree {
                name: sema.name.clone(),
                smt: from_smt,
                concrete,
                inputs: inputs(),
            });
        }
    }
    Ok(cases.len())
}
