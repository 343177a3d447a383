// autollvm's op classes, declared by mlir-tblgen from its ODS (generated/autollvm.td) into OUT_DIR.
// Included by autollvm.cpp (the dialect) and by each shard of the op definitions build.rs writes.
#pragma once
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
namespace hydride { mlir::LogicalResult verifyVariant(mlir::Operation *op); } // the variant check, autollvm.cpp
#include "mlir/IR/DialectImplementation.h"
#include "autollvm_enums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "autollvm_attrs.h.inc"
#include "autollvm_dialect.h.inc"
#define GET_OP_CLASSES
#include "autollvm_ops.h.inc"
