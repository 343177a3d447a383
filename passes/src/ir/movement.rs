//! Lowering a data movement by an immediate (`_mm512_shuffle_epi32`,
//! `_mm512_alignr_epi8`, …) to one `llvm.shufflevector`, as clang lowers
//! the intrinsic: the mask is the arrangement the instruction's semantics
//! make for the op's immediate ([`dialectgen::movement`]), proved
//! equal to the semantics by Z3 before it is used. An arrangement is found
//! and proved once per instruction and immediate in a process.

use super::build::{self, Builder};
use super::failure::{MovementError, RewriteError};
use crate::synth::grammar::instruction_semantics;
use crate::synth::target::Isa;
use crate::synth::types::Ty;
use dialectgen::movement::{self, Source};
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;
use std::sync::Mutex;

type Arrangement = Result<(Vec<Source>, Vec<Option<usize>>), MovementError>;

/// A data movement: the ISA and instruction whose semantics give the
/// arrangement, and the size of the elements moved.
pub type Movement<'m> = (Isa, &'m str, u32);

/// The proved arrangement of `m` for immediate `imm` (unmasked, for a mask
/// form), with the target op's operand index of each argument of the
/// semantics (none for immediates).
fn arrangement((isa, instruction, elem_bits): Movement, imm: u32) -> Arrangement {
    static PROVED: Mutex<Vec<((Isa, String, u32), Arrangement)>> = Mutex::new(Vec::new());
    let key = (isa, instruction.to_string(), imm);
    if let Some((_, a)) = PROVED.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
        return a.clone();
    }
    let found = (|| {
        let (sem, arg_order) = instruction_semantics(isa, instruction)?;
        let sources = movement::sources(&sem, elem_bits, imm).ok_or_else(|| MovementError::MovesNothing {
            instruction: instruction.to_string(),
            imm,
            elem_bits,
        })?;
        if !movement::proved(&sem, elem_bits, imm, &sources) {
            return Err(MovementError::Unproved { instruction: instruction.to_string(), imm });
        }
        // Argument k is the C intrinsic's argument `arg_order[k]`.
        let operand_of = sem.op_operands(&arg_order);
        Ok((sources, operand_of))
    })();
    PROVED.lock().unwrap_or_else(|e| e.into_inner()).push((key, found.clone()));
    found
}

/// The shufflevector computing `op`, a vector of elements of the movement's size.
pub fn lower<'c, 'a>(
    context: &'c Context,
    b: &Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
    m: Movement,
    imm: u32,
    result: &Ty,
) -> Result<Value<'c, 'a>, RewriteError> {
    let (sources, operand_of) = arrangement(m, imm)?;
    let mut used: Vec<usize> =
        sources.iter().filter_map(|s| if let Source::Element { arg, .. } = s { Some(*arg) } else { None }).collect();
    used.sort_unstable();
    used.dedup();
    let result_ty = build::mlir_type(context, result);
    let input = |arg: usize| -> Result<(Value<'c, 'a>, u32), RewriteError> {
        let index = operand_of[arg].ok_or(RewriteError::Invariant("an immediate moved as an element"))?;
        let v = op.operand(index)?;
        let bits = super::read::ty(v.r#type()).ok_or(RewriteError::UnmodelledType("an operand"))?.bits();
        let lanes = bits / m.2;
        Ok((b.llvm_cast(v, &Ty { dims: vec![lanes], elem_bits: m.2 })?, lanes))
    };
    let (first, second, lanes) = match used.as_slice() {
        [] => return Ok(b.create("llvm.mlir.zero", &[], &[], result_ty)?),
        [a] => {
            let (v, lanes) = input(*a)?;
            let zero = b.create("llvm.mlir.zero", &[], &[], v.r#type())?;
            (v, zero, lanes)
        }
        [a, c] if !sources.contains(&Source::Zero) => {
            let ((v, lanes), (w, _)) = (input(*a)?, input(*c)?);
            (v, w, lanes)
        }
        _ => return Err(MovementError::NotOneShuffle { instruction: m.1.to_string(), imm }.into()),
    };
    let mask: Vec<i32> = sources
        .iter()
        .map(|s| match s {
            Source::Element { arg, index } if *arg == used[0] => *index as i32,
            Source::Element { index, .. } => (lanes + index) as i32,
            Source::Zero => lanes as i32,
        })
        .collect();
    let mask = DenseI32ArrayAttribute::new(context, &mask).into();
    Ok(b.create("llvm.shufflevector", &[first, second], &[("mask", mask)], result_ty)?)
}
