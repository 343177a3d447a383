// autollvm compiled from its ODS (generated/autollvm.td): the dialect and its enum attributes here, the op definitions in
// shards build.rs writes (mlir-tblgen -op-shard-count), compiled in parallel.
#include "autollvm.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/TypeSwitch.h"
extern "C" bool hydride_verify_op(MlirOperation op); // the variant check (src/ffi.rs)
namespace hydride { mlir::LogicalResult verifyVariant(mlir::Operation *op) { return mlir::success(hydride_verify_op(wrap(op))); } }
#include "autollvm_dialect.cpp.inc"
#include "autollvm_enums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "autollvm_attrs.cpp.inc"
void autollvm::AutollvmDialect::initialize() {
  registerAutollvmDialectOperations(this);
  addAttributes<
#define GET_ATTRDEF_LIST
#include "autollvm_attrs.cpp.inc"
      >();
}
extern "C" MlirStringRef hydride_masking_case(MlirAttribute attr) { // for src/ir/raw.rs
  auto masking = llvm::dyn_cast<autollvm::MaskingAttr>(unwrap(attr));
  return masking ? wrap(autollvm::stringifyMasking(masking.getValue())) : MlirStringRef{nullptr, 0};
}
extern "C" void hydride_insert_autollvm(mlir::DialectRegistry *r) { r->insert<autollvm::AutollvmDialect>(); }
