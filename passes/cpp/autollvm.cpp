// autollvm compiled from its ODS (generated/autollvm.td; build.rs runs mlir-tblgen into OUT_DIR).
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
extern "C" bool hydride_verify_op(MlirOperation op); // the variant check (src/ffi.rs)
namespace hydride { mlir::LogicalResult verifyVariant(mlir::Operation *op) { return mlir::success(hydride_verify_op(wrap(op))); } }
#include "autollvm_dialect.h.inc"
#define GET_OP_CLASSES
#include "autollvm_ops.h.inc"
#include "autollvm_dialect.cpp.inc"
#define GET_OP_CLASSES
#include "autollvm_ops.cpp.inc"
void autollvm::AutollvmDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "autollvm_ops.cpp.inc"
      >();
}
extern "C" void hydride_insert_autollvm(mlir::DialectRegistry *r) { r->insert<autollvm::AutollvmDialect>(); }
