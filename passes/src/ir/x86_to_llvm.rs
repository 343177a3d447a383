//! `convert-hydride-x86-to-llvm`: every hydride_x86 op becomes the LLVM IR
//! clang emits for its intrinsic (from `generated/x86/llvm-calls.json`):
//! either a call of one LLVM intrinsic (`llvm.call_intrinsic`), operands
//! bitcast to the intrinsic's parameter types, immediates as constants, and
//! for AVX-512 mask forms a `select` on the mask; or clang's generic IR for
//! it (a recorded `llvm.func` snippet), inlined in place; or, for a data
//! movement by an immediate, the `shufflevector` whose mask the semantics
//! give for the op's immediate (`super::movement`); or, for an immediate of
//! few values, clang's IR recorded for the op's value, inlined; or, for one
//! of more values (rotations, funnel shifts), clang's IR with the op's value
//! in its place, inlined (an error outside the range it was read for).
//! `psign` of a value by itself, which is its absolute value, becomes the
//! generic `llvm.abs`, as clang's `_mm256_abs_epi16` does.

use super::build::{self, Builder, Snippets};
use super::raw;
use super::read;
use crate::llvm_calls::CallTable;
use crate::synth::attr::Attr;
use crate::synth::types::Ty;
use dialectgen::isa::x86::llvm_call::{CallArg, LlvmCall, Otherwise};
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;

pub fn run(context: &Context, root: OperationRef) -> Result<(), ()> {
    let ops: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("hydride_x86.")))
        .collect();
    let mut ok = true;
    let mut snippets = Snippets::default();
    for op in ops {
        if let Err(e) = convert(context, op, &mut snippets) {
            raw::emit(&op, false, &e);
            ok = false;
        }
    }
    ok.then_some(()).ok_or(())
}

/// The integer attribute `name` of `op`.
fn integer_attribute(op: OperationRef, name: &str) -> Result<num_bigint::BigInt, String> {
    op.attribute(name)
        .ok()
        .and_then(|a| match read::attr(a) {
            Attr::Int(x) => Some(x),
            _ => None,
        })
        .ok_or_else(|| format!("needs the integer attribute '{name}'"))
}

/// Whether `op` is `psign` (SSSE3, AVX2) of a value by itself.
fn sign_of_itself(op: OperationRef, call: &LlvmCall) -> bool {
    let psign = ["llvm.x86.ssse3.psign.", "llvm.x86.avx2.psign."].iter().any(|p| call.intrinsic.starts_with(p));
    psign && op.operand_count() == 2 && matches!((op.operand(0), op.operand(1)), (Ok(a), Ok(b)) if a == b)
}

/// A type of the call table (written by `hydride gen`).
fn table_type(text: &str) -> Result<Ty, String> {
    Ty::parse(text).ok_or_else(|| format!("the LLVM call table has a type hydride does not model: {text}"))
}

fn convert<'c>(context: &'c Context, op: OperationRef<'c, '_>, snippets: &mut Snippets<'c>) -> Result<(), String> {
    let name = op.name().as_string_ref().as_str().unwrap_or_default().to_string();
    let call: &LlvmCall = CallTable::embedded()?.get(&name).ok_or_else(|| {
        format!("cannot be lowered to LLVM: no LLVM lowering for {name}: its LLVM IR depends on its immediates and is not one intrinsic call, or is not one block of pure operations")
    })?;
    let b = Builder::new(context, op);
    let mut args = Vec::new();
    for (arg, ty) in call.args.iter().zip(&call.signature.params) {
        let ty = table_type(ty)?;
        match arg {
            // A movement's operands are its shufflevector's, cast there.
            CallArg::Operand(_) if call.movement.is_some() => {}
            CallArg::Operand(k) => {
                let v = op.operand(*k).map_err(|e| format!("malformed LLVM call plan: operand {k}: {e}"))?;
                args.push(b.llvm_cast(v, &ty)?);
            }
            CallArg::Immediate(attr) => {
                let value = integer_attribute(op, attr)?;
                args.push(b.llvm_constant(&value, &ty)?);
            }
        }
    }
    let result_ty = table_type(&call.signature.result)?;
    let immediate = |attr: &str| -> Result<u32, String> {
        let imm = integer_attribute(op, attr)?;
        u32::try_from(&imm).map_err(|_| format!("immediate '{attr}' = {imm} is out of range"))
    };
    let mut result = match (&call.snippet, &call.movement, &call.snippet_per_immediate, &call.snippet_of_immediate) {
        (Some(text), _, _, _) => b.inline(snippets.get(context, &name, text)?, &args)?,
        (None, Some(m), _, _) => super::movement::lower(context, &b, op, m, immediate(&m.immediate)?, &result_ty)?,
        (None, None, Some(p), _) => {
            let imm = immediate(&p.immediate)?;
            let text = p.at(imm).ok_or_else(|| {
                format!(
                    "immediate '{}' = {imm} is out of range: clang's IR was recorded for 0..={}",
                    p.immediate,
                    p.top()
                )
            })?;
            b.inline(snippets.get(context, &format!("{name} {} = {imm}", p.immediate), text)?, &args)?
        }
        (None, None, None, Some(t)) => {
            let imm = immediate(&t.immediate)?;
            let text = t.template.text(i64::from(imm)).ok_or_else(|| {
                let (lo, hi) = t.template.values;
                format!("immediate '{}' = {imm} is out of range: clang's IR was read for {lo}..={hi}", t.immediate)
            })?;
            b.inline(snippets.get(context, &format!("{name} {} = {imm}", t.immediate), &text)?, &args)?
        }
        (None, None, None, None) if sign_of_itself(op, call) => {
            // psign(x, x) is |x|, -MIN being MIN: `llvm.abs` with MIN not
            // poison, which LLVM's optimizer understands (|a| + |b| is
            // non-negative: `vpminuw` after it where the call hid it).
            let no_poison = b.llvm_constant(&num_bigint::BigInt::from(0), &Ty { dims: Vec::new(), elem_bits: 1 })?;
            let abs = format!("llvm.abs.v{}i{}", result_ty.lanes(), result_ty.elem_bits);
            b.call_intrinsic(&abs, &[args[0], no_poison], &result_ty)?
        }
        (None, None, None, None) => b.call_intrinsic(&call.intrinsic, &args, &result_ty)?,
    };
    let old: Value = op.result(0).map_err(|e| e.to_string())?.into();
    let op_ty = read::ty(old.r#type()).ok_or("the op's result is not an integer vector")?;
    if let Some(s) = &call.select {
        if s.elements * s.elem_width != op_ty.bits() {
            return Err(format!("mask form over {} of the result's elements is not supported", s.elements));
        }
        let lanes = Ty { dims: vec![s.elements], elem_bits: s.elem_width };
        let mut mask = op.operand(s.mask).map_err(|e| e.to_string())?;
        let mask_ty = read::ty(mask.r#type()).filter(|t| t.dims.len() == 1 && t.lanes() >= s.elements);
        let mask_ty =
            mask_ty.ok_or_else(|| format!("mask {} does not cover {} elements", mask.r#type(), s.elements))?;
        if mask_ty.lanes() > s.elements {
            let first: Vec<i32> = (0..s.elements as i32).collect();
            let t = build::mlir_type(context, &Ty { dims: vec![s.elements], elem_bits: mask_ty.elem_bits });
            let m = DenseI32ArrayAttribute::new(context, &first).into();
            mask = b.create("llvm.shufflevector", &[mask, mask], &[("mask", m)], t)?;
        }
        let computed = b.llvm_cast(result, &lanes)?;
        let otherwise = match s.otherwise {
            Otherwise::Zero => b.create("llvm.mlir.zero", &[], &[], build::mlir_type(context, &lanes))?,
            Otherwise::Operand(k) => b.llvm_cast(op.operand(k).map_err(|e| e.to_string())?, &lanes)?,
        };
        result = b.create("llvm.select", &[mask, computed, otherwise], &[], build::mlir_type(context, &lanes))?;
    }
    let back = b.llvm_cast(result, &op_ty)?;
    raw::replace_all_uses(old, back);
    raw::erase(op);
    Ok(())
}
