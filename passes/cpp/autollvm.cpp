// autollvm compiled from its ODS (generated/autollvm.td): the dialect here, the op definitions in
// shards build.rs writes (mlir-tblgen -op-shard-count), compiled in parallel.
#include "autollvm.h"
#include "mlir/CAPI/IR.h"
extern "C" bool hydride_verify_op(MlirOperation op); // the variant check (src/ffi.rs)
namespace hydride { mlir::LogicalResult verifyVariant(mlir::Operation *op) { return mlir::success(hydride_verify_op(wrap(op))); } }
#include "autollvm_dialect.cpp.inc"
void autollvm::AutollvmDialect::initialize() { registerAutollvmDialectOperations(this); }
extern "C" void hydride_insert_autollvm(mlir::DialectRegistry *r) { r->insert<autollvm::AutollvmDialect>(); }
