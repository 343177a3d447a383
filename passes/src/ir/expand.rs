//! `expand-autollvm` and `expand-hydride-<isa>`: every op of a generated
//! dialect replaced by the `vector`/`arith` ops that compute its semantics
//! ([`dialectgen::expand`]), made for the immediates the op carries. An
//! autollvm op is expanded as the instruction its variant names (any ISA's:
//! the members of a class compute the same function at the same numbers).
//! What is left is portable: LLVM's own path compiles it for any target.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read;
use crate::synth::attr::Attr;
use crate::synth::grammar::op_instruction;
use crate::synth::target::Isa;
use crate::synth::types::Ty;
use dialectgen::expand::{expand, ExpandError, Expansion, Input, VTy, ValueRef};
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, OperationRef, Value, ValueLike};
use melior::Context;
use num_bigint::BigUint;

/// Why an op was not expanded.
#[derive(Debug, thiserror::Error)]
pub enum ExpandFailure {
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
    #[error(transparent)]
    Expand(#[from] ExpandError),
    #[error(transparent)]
    Table(#[from] crate::table_error::TableError),
    #[error("implements no instruction of any ISA with these attributes and types")]
    NoInstruction,
    #[error("has no integer attribute `{0}` (an immediate of its instruction)")]
    MissingImmediate(String),
    #[error("immediate `{0}` is negative or not an integer")]
    BadImmediate(String),
    #[error("an operand or the result is not a vector of integers or an integer")]
    UnmodelledType,
    #[error("the expansion's op `{op}` does not build: {why}")]
    Build { op: String, why: String },
}

/// Which dialect a pass expands: `autollvm`, or one ISA's.
#[derive(Clone, Copy, Debug)]
pub enum Expanded {
    Autollvm,
    Isa(Isa),
}

pub fn run(context: &Context, root: OperationRef, which: Expanded) -> Result<(), ()> {
    let prefix = match which {
        Expanded::Autollvm => "autollvm.".to_string(),
        Expanded::Isa(isa) => format!("{}.", isa.dialect()),
    };
    let ops: Vec<OperationRef> = raw::nested_ops(root)
        .into_iter()
        .filter(|op| op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with(&prefix)))
        .collect();
    for op in ops {
        expand_op(context, op, which).map_err(|e| raw::emit(&op, false, &format!("cannot be expanded: {e}")))?;
    }
    Ok(())
}

/// The instruction an op stands for: the target op's name, its operands
/// (values of the op, in the target op's order) and its attributes by
/// name.
type Instruction<'c, 'a> = (String, Vec<Value<'c, 'a>>, Vec<(String, Attribute<'c>)>);

fn instruction<'c, 'a>(op: OperationRef<'c, 'a>, which: Expanded) -> Result<Instruction<'c, 'a>, ExpandFailure> {
    if let Expanded::Isa(_) = which {
        let operands = (0..op.operand_count()).map(|k| op.operand(k)).collect::<Result<Vec<_>, _>>();
        let attrs = op.attributes().map(|(n, a)| (n.as_string_ref().as_str().unwrap_or_default().to_string(), a));
        return Ok((read::name(&op), operands.map_err(RewriteError::from)?, attrs.collect()));
    }
    // Any ISA's instruction: the members of a class compute one function at the same numbers.
    Isa::all()
        .find_map(|isa| super::to_target::target_parts(op, &isa.dialect()).ok())
        .ok_or(ExpandFailure::NoInstruction)
}

/// The names of `op`'s integer attributes in its instruction's argument
/// order, as its dialect's IRDL declares them.
fn immediate_names(op: &str) -> Vec<String> {
    let Some((dialect, short)) = op.split_once('.') else { return Vec::new() };
    let Some(isa) = Isa::all().find(|i| i.dialect() == dialect) else { return Vec::new() };
    let irdl = isa.of().dialect_irdl();
    let Some(at) = irdl.find(&format!("irdl.operation @{short} {{")) else { return Vec::new() };
    let body = &irdl[at..];
    let body = &body[..body.find("\n  }").unwrap_or(body.len())];
    let Some(line) = body.lines().find(|l| l.trim_start().starts_with("irdl.attributes")) else { return Vec::new() };
    line.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

fn vty(v: Value) -> Result<VTy, ExpandFailure> {
    let t = read::ty(v.r#type()).ok_or(ExpandFailure::UnmodelledType)?;
    Ok(VTy { dims: t.dims, elem: t.elem_bits })
}

fn expand_op<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>, which: Expanded) -> Result<(), ExpandFailure> {
    let (target, operands, attributes) = instruction(op, which)?;
    let (sem, arg_order) = op_instruction(&target)?;
    let operand_of = sem.op_operands(&arg_order);
    // Immediates in the order of their C positions, as the IRDL lists them.
    let mut immediates: Vec<(usize, usize)> =
        operand_of.iter().enumerate().filter(|(_, o)| o.is_none()).map(|(k, _)| (arg_order[k], k)).collect();
    immediates.sort_unstable();
    let names = immediate_names(&target);
    let mut inputs: Vec<Input> = operand_of.iter().map(|o| Input::Operand(o.unwrap_or(0))).collect();
    for (i, &(_, k)) in immediates.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| sem.args[k].name.clone());
        let attr =
            attributes.iter().find(|(n, _)| *n == name).ok_or_else(|| ExpandFailure::MissingImmediate(name.clone()))?;
        let Attr::Int(v) = read::attr(attr.1) else { return Err(ExpandFailure::BadImmediate(name)) };
        let v: BigUint = v.to_biguint().ok_or(ExpandFailure::BadImmediate(name))?;
        inputs[k] = Input::Number(v);
    }
    let operand_types = operands.iter().map(|&v| vty(v)).collect::<Result<Vec<_>, _>>()?;
    let old: Value = op.result(0).map_err(RewriteError::from)?.into();
    let expansion = expand(&sem, &inputs, &operand_types, &vty(old)?)?;
    let new = build_expansion(context, op, &operands, &expansion)?;
    raw::replace_all_uses(old, new);
    raw::erase(op);
    Ok(())
}

/// Creates the expansion's ops before `op`; the value of its result.
fn build_expansion<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    operands: &[Value<'c, 'a>],
    e: &Expansion,
) -> Result<Value<'c, 'a>, ExpandFailure> {
    let b = Builder::new(context, op);
    let mut made: Vec<Value<'c, 'a>> = Vec::new();
    let value = |made: &[Value<'c, 'a>], v: ValueRef| match v {
        ValueRef::Operand(k) => operands[k],
        ValueRef::Op(k) => made[k],
    };
    for o in &e.ops {
        let failed = |why: String| ExpandFailure::Build { op: o.name.to_string(), why };
        let args: Vec<Value> = o.operands.iter().map(|&v| value(&made, v)).collect();
        let attrs = o
            .attributes
            .iter()
            .map(|(n, text)| Ok((*n, build::parsed_attribute(context, text).map_err(|e| failed(e.to_string()))?)))
            .collect::<Result<Vec<_>, ExpandFailure>>()?;
        let ty = build::mlir_type(context, &Ty { dims: o.result.dims.clone(), elem_bits: o.result.elem });
        made.push(b.create(o.name, &args, &attrs, ty).map_err(|e| failed(e.to_string()))?);
    }
    let result = e.result.ok_or(ExpandFailure::Build { op: "result".into(), why: "none".into() })?;
    Ok(value(&made, result))
}
