//! MLIR text parsed by MLIR (through melior) into the blocks synthesis
//! reads: for the offline rules, whose idioms are written as functions.

use crate::synth::block::BlockOp;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, RegionLike};
use melior::Context;

/// Why MLIR text gives no functions to read.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("the MLIR does not parse")]
    Unparsed,
    #[error("a function without a body")]
    NoBody,
    #[error(transparent)]
    Mlir(#[from] melior::Error),
}

/// Each function's name and entry block (its `func.return` included).
pub fn functions(mlir: &str) -> Result<Vec<(String, Vec<BlockOp>)>, ParseError> {
    let registry = melior::dialect::DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    for d in ["func", "arith", "vector", "llvm"] {
        context.get_or_load_dialect(d);
    }
    let module = Module::parse(&context, mlir).ok_or(ParseError::Unparsed)?;
    let mut out = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("func.func") {
            continue;
        }
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string())
            .unwrap_or_default();
        let block = op.region(0)?.first_block().ok_or(ParseError::NoBody)?;
        out.push((name, super::read::block(block).ops));
    }
    Ok(out)
}
