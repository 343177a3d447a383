//! `convert-autollvm-to-<isa>`: every autollvm op becomes the op of the
//! ISA's dialect its variant names (operands permuted, immediates copied),
//! one to one.

use super::build::Builder;
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::target::Isa;
use crate::variants::VariantTable;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, OperationRef, Value, ValueLike};
use melior::Context;

pub fn run(context: &Context, root: OperationRef, isa: Isa) -> Result<(), ()> {
    let ops: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("autollvm.")))
        .collect();
    for op in ops {
        convert(context, op, isa)
            .map_err(|e| raw::emit(&op, false, &format!("cannot be lowered to {}: {e}", isa.name())))?;
    }
    Ok(())
}

/// The instruction op of `dialect` an autollvm op's variant names: its
/// name, the op's operands in its order and the attributes it takes (by
/// its names, the values the autollvm op carries).
#[allow(clippy::type_complexity)]
pub fn target_parts<'c, 'a>(
    op: OperationRef<'c, 'a>,
    dialect: &str,
) -> Result<(String, Vec<Value<'c, 'a>>, Vec<(String, Attribute<'c>)>), RewriteError> {
    let table = VariantTable::embedded()?;
    let target = table.target_in(&read::instance(&op), dialect)?;
    let operands = target.operands.iter().map(|k| op.operand(*k)).collect::<Result<Vec<_>, _>>()?;
    let mut attributes = Vec::new();
    for (name, class_attr) in &target.attributes {
        if !name.is_empty() {
            let missing = |_| RewriteError::MissingAttribute { op: read::name(&op), name: class_attr.clone() };
            attributes.push((name.clone(), op.attribute(class_attr).map_err(missing)?));
        }
    }
    Ok((target.op.clone(), operands, attributes))
}

fn convert(context: &Context, op: OperationRef, isa: Isa) -> Result<(), RewriteError> {
    let (target, operands, attributes) = target_parts(op, &isa.dialect())?;
    let attributes: Vec<(&str, Attribute)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let old: Value = op.result(0)?.into();
    let new = Builder::new(context, op).create(&target, &operands, &attributes, old.r#type())?;
    raw::replace_all_uses(old, new);
    raw::erase(op);
    Ok(())
}
