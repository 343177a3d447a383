// hydride-x86-to-llvm: the whole lowering in one pass pipeline, from
// vector/arith through autollvm and hydride_x86 to the LLVM dialect.
#include "shim.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

void hydride::registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "hydride-x86-to-llvm",
      "lower-to-autollvm (target native), convert-autollvm-to-x86, convert-hydride-x86-to-llvm, then the "
      "upstream vector/arith/ub/func conversions to the LLVM dialect",
      [](mlir::OpPassManager &pm) {
        (void)mlir::parsePassPipeline(
            "lower-to-autollvm,convert-autollvm-to-x86,convert-hydride-x86-to-llvm,"
            "func.func(lower-vector-multi-reduction),convert-vector-to-llvm,convert-arith-to-llvm,"
            "convert-ub-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts",
            pm);
      });
}
