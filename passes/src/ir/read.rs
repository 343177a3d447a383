//! What the passes read from the IR, through the C API: types as [`Ty`],
//! attributes as [`Attr`], a block as [`BlockOp`]s, a generated op as an
//! [`OpInstance`].

use super::raw::{self, Content};
use crate::synth::attr::Attr;
use crate::synth::block::BlockOp;
use crate::synth::types::Ty;
use crate::variants::OpInstance;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{Attribute, BlockLike, BlockRef, OperationRef, Type, Value, ValueLike};
use std::collections::HashMap;

/// An integer or fixed-size vector of integers type; `None` for others.
pub fn ty(t: Type) -> Option<Ty> {
    raw::integer_shape(t).map(|(dims, elem_bits)| Ty { dims, elem_bits })
}

/// A type as the variant table writes it (its [`Ty`]), or as MLIR prints
/// it where it is no integer type (never equal to a table's).
pub fn type_name(t: Type) -> String {
    ty(t).map_or_else(|| t.to_string(), |t| t.to_string())
}

pub fn attr(a: Attribute) -> Attr {
    if let Some(kind) = raw::combining_kind(a) {
        return Attr::Kind(kind);
    }
    match raw::content(a) {
        Content::Int(x) => Attr::Int(x),
        Content::Ints(xs) => Attr::Ints(xs),
        Content::Maps(maps) => Attr::Maps(maps),
        Content::Elements(xs) => Attr::Elements(xs),
        Content::Str(s) => Attr::Str(s),
        Content::Case(_) | Content::Other => Attr::Other(a.to_string()),
    }
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// A block's ops for synthesis, with the IR they stand for.
pub struct ReadBlock<'c, 'a> {
    pub ops: Vec<BlockOp>,
    /// The op each [`BlockOp`] was read from (same index).
    pub handles: Vec<OperationRef<'c, 'a>>,
    /// The IR value of each value number.
    pub values: Vec<Value<'c, 'a>>,
}

/// The ops of `block` with operands or results, after the constants
/// defined outside it (hoisted out of a loop) that its ops read, which are
/// part of its dataflow.
pub fn block<'c, 'a>(block: BlockRef<'c, 'a>) -> ReadBlock<'c, 'a> {
    let mut inside = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        inside.push(op);
    }
    let mut described: Vec<OperationRef> = Vec::new();
    for op in &inside {
        for v in op.operands() {
            let Ok(result) = melior::ir::operation::OperationResult::try_from(v) else { continue };
            let def = result.owner();
            let outside = def.block().is_none_or(|b| b != block);
            if outside && def.name().as_string_ref().as_str() == Ok("arith.constant") && !described.contains(&def) {
                described.push(def);
            }
        }
    }
    described.extend(inside);
    let mut read = ReadBlock { ops: Vec::new(), handles: Vec::new(), values: Vec::new() };
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let mut id = |v: Value<'c, 'a>, values: &mut Vec<Value<'c, 'a>>| {
        *ids.entry(key(v)).or_insert_with(|| {
            values.push(v);
            values.len() - 1
        })
    };
    for op in described {
        if op.operand_count() == 0 && op.result_count() == 0 {
            continue;
        }
        let operands: Vec<Value> = op.operands().collect();
        let results: Vec<Value> = op.results().map(Value::from).collect();
        let block_op = BlockOp {
            index: read.ops.len(),
            name: op.name().as_string_ref().as_str().unwrap_or_default().to_string(),
            operands: operands.iter().map(|v| id(*v, &mut read.values)).collect(),
            operand_types: operands.iter().map(|v| ty(v.r#type())).collect(),
            results: results.iter().map(|v| id(*v, &mut read.values)).collect(),
            result_types: results.iter().map(|v| ty(v.r#type())).collect(),
            attributes: op
                .attributes()
                .map(|(name, a)| (name.as_string_ref().as_str().unwrap_or_default().to_string(), attr(a)))
                .collect(),
            has_regions: op.region_count() > 0,
            unmodelled_vectors: operands
                .iter()
                .chain(&results)
                .map(|v| v.r#type())
                .filter(|t| t.is_vector() && ty(*t).is_none())
                .map(|t| t.to_string())
                .collect(),
        };
        read.ops.push(block_op);
        read.handles.push(op);
    }
    read
}

/// An op's name (`vector.contract`).
pub fn name(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// A generated op as the variant table matches it.
pub fn instance(op: &OperationRef) -> OpInstance {
    OpInstance {
        name: name(op),
        attributes: op
            .attributes()
            .map(|(name, a)| {
                let value = match raw::content(a) {
                    Content::Int(x) => x.to_string(),
                    Content::Str(s) | Content::Case(s) => s,
                    _ => a.to_string(),
                };
                (name.as_string_ref().as_str().unwrap_or_default().to_string(), value)
            })
            .collect(),
        operand_types: op.operands().map(|v| type_name(v.r#type())).collect(),
        result_types: op.results().map(|v| type_name(v.r#type())).collect(),
        regions: op.region_count(),
    }
}
