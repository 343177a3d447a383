//! Elementwise contractions in one spelling: a `vector.contract` with kind
//! `add` whose lhs and rhs maps are both the identity and whose accumulator
//! map keeps some of the dimensions (the parallel ones) is, by its
//! definition, the product of lhs and rhs reduced with `add` over the other
//! dimensions into the accumulator. Before synthesis it is rewritten as that
//! `arith.muli` and `vector.multi_reduction`, so a dot product reaches the
//! search in the same form however it was written (linalg vectorization
//! gives the contraction; hand-written code the product and reduction).
//! The product is taken over the operands flattened to one dimension (their
//! extensions too, reading a flat value where the narrow operand is a
//! `vector.shape_cast` of one), as hand-written code takes it and as LLVM
//! lowers best; a `vector.shape_cast` gives the reduction its shape.
//! `passes/tests/contract_elementwise.rs` proves the two forms equal with Z3.
//! Other contractions (matrix tiles, transposed maps) are left to
//! `split_contract` and the window semantics.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::attr::Attr;
use crate::synth::types::Ty;
use melior::ir::attribute::DenseI64ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::operation::OperationResult;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::Context;

pub fn run<'c>(context: &'c Context, root: OperationRef<'c, 'c>) -> Result<(), RewriteError> {
    let contracts: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str() == Ok("vector.contract"))
        .collect();
    for op in contracts {
        rewrite(context, op)?;
    }
    Ok(())
}

/// The dimensions reduced, if `op` is an elementwise contraction (see the
/// module doc) of integer vectors.
fn reduced_dimensions(op: OperationRef) -> Option<Vec<i64>> {
    let kind = op.attribute("kind").ok().map(read::attr)?;
    let Attr::Maps(maps) = op.attribute("indexing_maps").ok().map(read::attr)? else { return None };
    if kind.kind() != Some("add") || maps.len() != 3 || op.operand_count() != 3 {
        return None;
    }
    let dims = maps[0].0;
    let identity: Vec<u32> = (0..dims).collect();
    let (acc_dims, acc_map) = (&maps[2].0, &maps[2].1);
    let increasing = acc_map.windows(2).all(|w| w[0] < w[1]);
    if maps[0].1 != identity || maps[1].1 != identity || *acc_dims != dims || !increasing || acc_map.is_empty() {
        return None;
    }
    let types: Vec<_> = (0..3).map(|k| op.operand(k).ok().and_then(|v| read::ty(v.r#type()))).collect::<Option<_>>()?;
    if types[0] != types[1] || types[2].dims.len() != acc_map.len() || types[2].elem_bits != types[0].elem_bits {
        return None;
    }
    let reduced: Vec<i64> = (0..dims).filter(|d| !acc_map.contains(d)).map(i64::from).collect();
    (!reduced.is_empty()).then_some(reduced)
}

fn rewrite<'c>(context: &'c Context, op: OperationRef<'c, 'c>) -> Result<(), RewriteError> {
    let Some(reduced) = reduced_dimensions(op) else { return Ok(()) };
    let operand = |k: usize| op.operand(k);
    let (lhs, rhs, acc) = (operand(0)?, operand(1)?, operand(2)?);
    let kind = op.attribute("kind")?;
    let b = Builder::new(context, op);
    let ty = read::ty(lhs.r#type()).ok_or(RewriteError::UnmodelledType("a contraction operand"))?;
    let flat = Ty { dims: vec![ty.lanes()], elem_bits: ty.elem_bits };
    let (l, r) = (flatten(&b, lhs, &flat)?, flatten(&b, rhs, &flat)?);
    let product = b.create("arith.muli", &[l, r], &[], build::mlir_type(context, &flat))?;
    let product = b.create("vector.shape_cast", &[product], &[], lhs.r#type())?;
    let dims = DenseI64ArrayAttribute::new(context, &reduced).into();
    let sum =
        b.create("vector.multi_reduction", &[product, acc], &[("kind", kind), ("reduction_dims", dims)], acc.r#type())?;
    let old: Value = op.result(0)?.into();
    raw::replace_all_uses(old, sum);
    raw::erase(op);
    // The n-D operands (extensions, and the reshapes they read), now unused.
    let kinds = ["arith.extsi", "arith.extui", "vector.shape_cast"];
    erase_unused(lhs, &kinds);
    if rhs != lhs {
        erase_unused(rhs, &kinds);
    }
    Ok(())
}

/// Erases the op defining `v` if nothing uses `v` and it is one of `kinds`,
/// then does the same for its operands.
pub(super) fn erase_unused(v: Value, kinds: &[&str]) {
    let Ok(result) = OperationResult::try_from(v) else { return };
    let def = result.owner();
    let name = def.name().as_string_ref().as_str().unwrap_or_default().to_string();
    if raw::has_uses(v) || !kinds.contains(&name.as_str()) {
        return;
    }
    let operands: Vec<Value> = (0..def.operand_count()).filter_map(|k| def.operand(k).ok()).collect();
    raw::erase(def);
    for o in operands {
        erase_unused(o, kinds);
    }
}

/// `v` (of `flat`'s elements) as the one-dimensional `flat`: an extension is
/// redone on its flattened operand; a `vector.shape_cast` of a flat value is
/// read through; anything else is reshaped.
fn flatten<'c>(b: &Builder<'c, 'c>, v: Value<'c, 'c>, flat: &Ty) -> Result<Value<'c, 'c>, RewriteError> {
    if let Some((narrow, ext)) = super::split_contract::extension(v) {
        let from = read::ty(narrow.r#type()).ok_or(RewriteError::UnmodelledType("an extension"))?;
        let narrow = flatten(b, narrow, &Ty { dims: flat.dims.clone(), elem_bits: from.elem_bits })?;
        return Ok(b.create(&ext, &[narrow], &[], build::mlir_type(b.context, flat))?);
    }
    let reshaped = OperationResult::try_from(v)
        .ok()
        .map(|r| r.owner())
        .filter(|d| d.name().as_string_ref().as_str() == Ok("vector.shape_cast"))
        .and_then(|d| d.operand(0).ok());
    match reshaped {
        Some(source) if read::ty(source.r#type()).as_ref() == Some(flat) => Ok(source),
        _ => Ok(b.create("vector.shape_cast", &[v], &[], build::mlir_type(b.context, flat))?),
    }
}
