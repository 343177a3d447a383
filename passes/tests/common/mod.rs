//! MLIR text read the way the passes read IR: parsed by MLIR (through
//! melior), each function's entry block read by `hydride::ir::read::block`.

use hydride::synth::block::BlockOp;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, RegionLike};
use melior::Context;

/// The ops of each function's entry block (its `func.return` included), in order.
pub fn function_blocks(mlir: &str) -> Vec<Vec<BlockOp>> {
    let registry = melior::dialect::DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    for d in ["func", "arith", "vector", "llvm"] {
        context.get_or_load_dialect(d);
    }
    let module = Module::parse(&context, mlir).expect("the test's MLIR parses");
    let mut out = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("func.func") {
            continue;
        }
        let block = op.region(0).expect("a body").first_block().expect("an entry block");
        out.push(hydride::ir::read::block(block).ops);
    }
    out
}
