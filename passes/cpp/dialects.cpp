// Registers hydride's generated dialects (IRDL definitions embedded in the
// plugin) with an MLIR dialect registry, and runs the hydride-opt driver.
#include "shim.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/IRDL/IR/IRDL.h"
#include "mlir/Dialect/IRDL/IRDLLoading.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/ExtensibleDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

extern "C" void hydride_register_passes();

static const char *definitions;
static size_t definitions_len;

// IRDL checks each operand, attribute and result on its own; whether they
// fit together is checked by the Rust side against the generated variants.
// IRDL's verifier stays in place, this one runs after it (as the region
// verifier; the ops have no regions, which it checks too).
static void attach_verifiers(mlir::MLIRContext *ctx, llvm::ArrayRef<std::string> dialects) {
  for (llvm::StringRef ns : dialects) {
    auto *dialect = llvm::dyn_cast_or_null<mlir::ExtensibleDialect>(ctx->getLoadedDialect(ns));
    if (!dialect)
      llvm::report_fatal_error("hydride: a generated dialect did not load");
    for (mlir::RegisteredOperationName name : ctx->getRegisteredOperations()) {
      if (name.getDialectNamespace() != ns)
        continue;
      // Every op of an extensible dialect is a DynamicOpDefinition; the
      // opaque pointer is its OperationName::Impl.
      auto *impl = static_cast<mlir::OperationName::Impl *>(const_cast<void *>(name.getAsOpaquePointer()));
      static_cast<mlir::DynamicOpDefinition *>(impl)->setVerifyRegionFn([](mlir::Operation *op) {
        std::string desc = hydride::describe(op);
        char *error = hydride_check_op(desc.data(), desc.size());
        if (!error)
          return mlir::success();
        mlir::InFlightDiagnostic diag = op->emitOpError() << llvm::Twine(error);
        hydride_free_string(error);
        return mlir::LogicalResult(diag);
      });
    }
  }
}

// Dynamic dialects can only be created once the context is fully set up, so
// they are loaded together with the first of these dialects, which any
// vector program has.
static void load(mlir::MLIRContext *ctx) {
  if (ctx->getLoadedDialect("autollvm"))
    return;
  ctx->loadDialect<mlir::irdl::IRDLDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(llvm::StringRef(definitions, definitions_len), ctx);
  if (!module || mlir::failed(mlir::irdl::loadDialects(*module)))
    llvm::report_fatal_error("hydride: the embedded dialect definitions do not load");
  std::vector<std::string> dialects;
  module->walk([&](mlir::irdl::DialectOp d) { dialects.push_back(d.getSymName().str()); });
  attach_verifiers(ctx, dialects);
}

extern "C" void hydride_register_dialects(void *registry_ptr, const char *irdl, size_t len) {
  definitions = irdl;
  definitions_len = len;
  auto *registry = static_cast<mlir::DialectRegistry *>(registry_ptr);
  registry->insert<mlir::irdl::IRDLDialect, mlir::func::FuncDialect, mlir::arith::ArithDialect,
                   mlir::vector::VectorDialect>();
  registry->addExtension(+[](mlir::MLIRContext *ctx, mlir::func::FuncDialect *) { load(ctx); });
  registry->addExtension(+[](mlir::MLIRContext *ctx, mlir::arith::ArithDialect *) { load(ctx); });
  registry->addExtension(+[](mlir::MLIRContext *ctx, mlir::vector::VectorDialect *) { load(ctx); });
}

extern "C" int hydride_opt_main(int argc, char **argv, const char *irdl, size_t len) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllPasses();
  hydride_register_passes();
  hydride_register_dialects(&registry, irdl, len);
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "hydride optimizer driver\n", registry));
}
