//! MLIR passes of hydride: lowering generic `vector`/`arith` code into the generated dialects.
