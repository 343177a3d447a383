//! MLIR text read the way the passes read IR: parsed by MLIR (through
//! melior), each function's entry block read by `hydride::ir::read::block`.

use hydride::synth::block::BlockOp;

/// The ops of each function's entry block (its `func.return` included), in order.
pub fn function_blocks(mlir: &str) -> Vec<Vec<BlockOp>> {
    let functions = hydride::ir::parse::functions(mlir).expect("the test's MLIR parses");
    functions.into_iter().map(|(_, ops)| ops).collect()
}
