//! An expansion checked against the semantics it was made from: both run
//! on the validation's test vectors (edge and random values, every
//! immediate it tries), through [`super::run`] and the concrete evaluator.

use super::program::VTy;
use super::{expand, ExpandError, Expansion, Input};
use crate::eval::{Concrete, Machine};
use crate::sema::ir::{ArgKind, Semantics};
use crate::validate::cases::TestCase;
use num_bigint::BigUint;
use num_traits::One;

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CheckError {
    #[error("no expansion{at}: {error}")]
    Expand { at: String, error: ExpandError },
    #[error("the expansion{at} does not run: {error}")]
    Run { at: String, error: super::run::RunError },
    #[error("the expansion{at} gives {got:#x} where the instruction gives {want:#x} (arguments {args:x?})")]
    Mismatch { at: String, args: Vec<BigUint>, want: BigUint, got: BigUint },
}

/// What each argument of `sem` is in its op (operands in order, numbers
/// for immediates), and the operands' and result's types.
pub fn op_shape(sem: &Semantics, immediates: &[BigUint]) -> (Vec<Input>, Vec<VTy>, VTy) {
    let (mut inputs, mut types, mut imm) = (Vec::new(), Vec::new(), immediates.iter());
    for a in &sem.args {
        if a.kind == ArgKind::Immediate {
            inputs.push(Input::Number(imm.next().cloned().unwrap_or_default()));
        } else {
            inputs.push(Input::Operand(types.len()));
            types.push(VTy::of_arg(a));
        }
    }
    (inputs, types, VTy::of_arg(&sem.result))
}

/// The expansion of `sem` at `immediates` (in the order of its arguments).
pub fn expand_instruction(sem: &Semantics, immediates: &[BigUint]) -> Result<Expansion, ExpandError> {
    let (inputs, types, result) = op_shape(sem, immediates);
    expand(sem, &inputs, &types, &result)
}

fn lanes(v: &BigUint, ty: &VTy) -> Vec<BigUint> {
    let m = (BigUint::one() << ty.elem) - BigUint::one();
    (0..ty.lanes().max(1)).map(|i| (v >> (i * ty.elem)) & &m).collect()
}

/// The most immediates (or sets of them) an instruction is checked at.
pub const MAX_IMMEDIATES: usize = 9;

/// Whether every immediate of `case` is one the instruction takes: within
/// its width, the bits it decodes and its vendor's range.
pub fn immediates_valid(sem: &Semantics, case: &TestCase) -> bool {
    sem.args.iter().zip(&case.args).filter(|(a, _)| a.kind == ArgKind::Immediate).all(|(a, v)| {
        let bits = a.imm_bits.unwrap_or(a.width).min(a.width);
        let fits = v.bits() <= u64::from(bits);
        let in_range = a.imm_range.is_none_or(|(lo, hi)| {
            let v = i64::try_from(v).unwrap_or(i64::MAX);
            lo <= v && v <= hi
        });
        fits && in_range
    })
}

/// Checks the expansion at every immediate the cases use; the number of
/// expansions made.
pub fn check(sem: &Semantics, cases: &[TestCase]) -> Result<usize, CheckError> {
    let imm_positions: Vec<usize> =
        sem.args.iter().enumerate().filter(|(_, a)| a.kind == ArgKind::Immediate).map(|(k, _)| k).collect();
    let imms_of = |case: &TestCase| -> Vec<BigUint> { imm_positions.iter().map(|&k| case.args[k].clone()).collect() };
    // At most `MAX_IMMEDIATES` of the immediates the cases try: the first
    // ones, the last ones and some between.
    let mut tried: Vec<Vec<BigUint>> = Vec::new();
    for c in cases.iter().filter(|c| immediates_valid(sem, c)) {
        if !tried.contains(&imms_of(c)) {
            tried.push(imms_of(c));
        }
    }
    if tried.len() > MAX_IMMEDIATES {
        let n = tried.len();
        let keep: Vec<usize> = (0..MAX_IMMEDIATES).map(|i| i * (n - 1) / (MAX_IMMEDIATES - 1)).collect();
        tried = keep.into_iter().map(|i| tried[i].clone()).collect();
    }
    let mut made: Vec<(Vec<BigUint>, Expansion)> = Vec::new();
    for case in cases.iter().filter(|c| immediates_valid(sem, c) && tried.contains(&imms_of(c))) {
        let imms = imms_of(case);
        let at = if imms.is_empty() { String::new() } else { format!(" at immediate {imms:?}") };
        if !made.iter().any(|(i, _)| *i == imms) {
            let e = expand_instruction(sem, &imms).map_err(|error| CheckError::Expand { at: at.clone(), error })?;
            made.push((imms.clone(), e));
        }
        let e = &made.iter().find(|(i, _)| *i == imms).expect("made").1;
        let Ok(want) = Machine::new(&mut Concrete, sem).run(&case.args) else { continue };
        let operands: Vec<Vec<BigUint>> = sem
            .args
            .iter()
            .zip(&case.args)
            .filter(|(a, _)| a.kind != ArgKind::Immediate)
            .map(|(a, v)| lanes(v, &VTy::of_arg(a)))
            .collect();
        let out = super::run::run(e, &operands).map_err(|error| CheckError::Run { at: at.clone(), error })?;
        let w = e.result.map(|r| e.type_of(r).elem).unwrap_or(0);
        let got = out.iter().enumerate().fold(BigUint::default(), |acc, (i, l)| acc | (l << (i as u32 * w)));
        if got != want {
            return Err(CheckError::Mismatch { at, args: case.args.clone(), want, got });
        }
    }
    Ok(made.len())
}
