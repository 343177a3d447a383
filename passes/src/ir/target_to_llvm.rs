//! `convert-hydride-arm-to-llvm` and `convert-hydride-hvx-to-llvm`: every
//! op of the ISA's dialect becomes what clang emits for its intrinsic
//! ([`crate::target_calls`]): a call of the LLVM intrinsic
//! (`llvm.aarch64.neon.*`, `llvm.hexagon.V6.*.128B`), operands bitcast to
//! its parameter types and the immediate as a constant, or one generic LLVM
//! instruction. An AArch64 intrinsic that is a generic one under a target
//! name (`neon.abs`, `neon.smax`, `neon.sqadd`, …) becomes the generic one
//! (`llvm.abs`, `llvm.smax`, `llvm.sadd.sat`), which LLVM's optimizer
//! understands ([`crate::target_calls::generic_intrinsic`]). An ARM op that
//! clang makes more of (`vabaq_u8`: `uabd` and `add`) becomes clang's IR
//! for it, inlined: for an immediate of few values the IR of the op's value,
//! for one of more values (`vrsraq_n_s32`) the IR with the op's value in its
//! place (an error outside the range it was read for).

use super::build::{self, Builder, Snippets};
use super::raw;
use super::read;
use crate::synth::target::Isa;
use crate::synth::types::Ty;
use crate::target_calls::{generic_intrinsic, TargetCall};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use melior::Context;
use num_bigint::BigInt;

pub fn run(context: &Context, root: OperationRef, isa: Isa) -> Result<(), ()> {
    let prefix = format!("{}.", isa.dialect());
    let ops: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with(&prefix)))
        .collect();
    let mut ok = true;
    let mut snippets = Snippets::default();
    for op in ops {
        if let Err(e) = convert(context, op, isa, &mut snippets) {
            raw::emit(&op, false, &e);
            ok = false;
        }
    }
    ok.then_some(()).ok_or(())
}

fn convert<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    isa: Isa,
    snippets: &mut Snippets<'c>,
) -> Result<(), String> {
    let name = op.name().as_string_ref().as_str().unwrap_or_default().to_string();
    let call = isa.target_calls()?.get(&name).ok_or_else(|| {
        format!("cannot be lowered to LLVM: hydride has no LLVM lowering for {name} (clang lowers it to more than one instruction, with immediates or not in one block of pure operations)")
    })?;
    let instance = read::instance(&op);
    let types = |texts: &[String]| {
        texts
            .iter()
            .map(|t| Ty::parse(t).ok_or_else(|| format!("type {t} is not modelled")))
            .collect::<Result<Vec<_>, _>>()
    };
    let operand_types = types(&instance.operand_types)?;
    let result_ty = match types(&instance.result_types)?.as_slice() {
        [t] => t.clone(),
        _ => return Err("expects one result".into()),
    };
    // The immediate (an integer attribute), passed after the operands.
    let immediates: Vec<BigInt> = instance.attributes.iter().filter_map(|(_, v)| v.parse::<BigInt>().ok()).collect();
    if immediates.len() > 1 {
        return Err(format!("cannot be lowered to LLVM: {} immediates (hydride passes one, last)", immediates.len()));
    }
    let operands: Vec<Value> =
        (0..op.operand_count()).map(|k| op.operand(k).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let b = Builder::new(context, op);
    let result = match call {
        TargetCall::Binary { op: llvm_op } => {
            let [x, y] = operands[..] else { return Err(format!("llvm.{llvm_op} takes two operands")) };
            b.create(&format!("llvm.{llvm_op}"), &[x, y], &[], build::mlir_type(context, &result_ty))?
        }
        TargetCall::Snippet { params, text, .. } => {
            if !immediates.is_empty() {
                return Err(format!("clang's IR for {name} takes no immediates"));
            }
            let value = inline(context, &b, snippets, &name, (params, text), &operands)?;
            b.llvm_cast(value, &result_ty)?
        }
        TargetCall::SnippetPerImmediate { lowest, snippets: per_value, .. } => {
            let [imm] = immediates.as_slice() else {
                return Err(format!("clang's IR for {name} was recorded per value of one immediate"));
            };
            let (params, _, text) = i64::try_from(imm - lowest)
                .ok()
                .and_then(|k| usize::try_from(k).ok())
                .and_then(|k| per_value.get(k))
                .ok_or_else(|| {
                    format!(
                        "immediate {imm} is out of range: clang's IR was recorded for {lowest}..{}",
                        lowest + per_value.len() as i64
                    )
                })?;
            let value = inline(context, &b, snippets, &format!("{name} {imm}"), (params, text), &operands)?;
            b.llvm_cast(value, &result_ty)?
        }
        TargetCall::SnippetOfImmediate { params, template, .. } => {
            let [imm] = immediates.as_slice() else {
                return Err(format!("clang's IR for {name} takes the value of one immediate"));
            };
            let text = i64::try_from(imm).ok().and_then(|v| template.text(v)).ok_or_else(|| {
                let (lo, hi) = template.values;
                format!("immediate {imm} is out of range: clang's IR was read for {lo}..={hi}")
            })?;
            let value = inline(context, &b, snippets, &format!("{name} {imm}"), (params, &text), &operands)?;
            b.llvm_cast(value, &result_ty)?
        }
        TargetCall::Intrinsic { name: intrinsic, .. } => {
            let mut arg_types = operand_types.clone();
            arg_types.extend(immediates.iter().map(|_| Ty { dims: Vec::new(), elem_bits: 32 }));
            let (params, result) = call
                .signature(&arg_types, &result_ty)
                .ok_or_else(|| format!("cannot pass the operands of {name} to {intrinsic}"))?;
            if params.len() != arg_types.len() {
                return Err(format!("{intrinsic} takes {} arguments, {name} has {}", params.len(), arg_types.len()));
            }
            let mut args = Vec::new();
            for (v, p) in operands.iter().zip(&params) {
                args.push(b.llvm_cast(*v, p)?);
            }
            for (x, p) in immediates.iter().zip(&params[operands.len()..]) {
                args.push(b.llvm_constant(x, p)?);
            }
            let value = match generic_intrinsic(intrinsic) {
                Some((generic, poison_flag)) => {
                    if poison_flag {
                        args.push(b.llvm_constant(&BigInt::from(0), &Ty { dims: Vec::new(), elem_bits: 1 })?);
                    }
                    b.call_intrinsic(&generic, &args, &result)?
                }
                None => b.call_intrinsic(intrinsic, &args, &result)?,
            };
            b.llvm_cast(value, &result_ty)?
        }
    };
    let old: Value = op.result(0).map_err(|e| e.to_string())?.into();
    raw::replace_all_uses(old, result);
    raw::erase(op);
    Ok(())
}

/// Clang's IR `snippet` (its parameter types and text; `key` names it in
/// the run's parsed snippets) inlined over `operands`, each cast to its
/// parameter's type: the value it returns.
fn inline<'c, 'a>(
    context: &'c Context,
    b: &Builder<'c, 'a>,
    snippets: &mut Snippets<'c>,
    key: &str,
    (params, text): (&[Ty], &str),
    operands: &[Value<'c, 'a>],
) -> Result<Value<'c, 'a>, String> {
    if params.len() != operands.len() {
        return Err(format!("clang's IR for {key} takes {} operands, the op has {}", params.len(), operands.len()));
    }
    let mut args = Vec::new();
    for (v, p) in operands.iter().zip(params) {
        args.push(b.llvm_cast(*v, p)?);
    }
    b.inline(snippets.get(context, key, text)?, &args)
}
