// hydride-x86-to-llvm: the whole lowering in one pass pipeline, from
// vector/arith through autollvm and hydride_x86 to the LLVM dialect.
#include "shim.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace {
struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("lower-to-autollvm's target: native (default), x86-avx512 or x86-avx2"),
                             llvm::cl::init("native")};
};
} // namespace

void hydride::registerPipelines() {
  mlir::PassPipelineRegistration<PipelineOptions>(
      "hydride-x86-to-llvm",
      "lower-to-autollvm{target=…} (native unless given), convert-autollvm-to-x86, convert-hydride-x86-to-llvm, "
      "then the upstream vector/arith/ub/func conversions to the LLVM dialect",
      [](mlir::OpPassManager &pm, const PipelineOptions &options) {
        (void)mlir::parsePassPipeline(
            "lower-to-autollvm{target=" + options.target + "},convert-autollvm-to-x86,convert-hydride-x86-to-llvm,"
            "func.func(lower-vector-multi-reduction),convert-vector-to-llvm,convert-arith-to-llvm,"
            "convert-ub-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts",
            pm);
      });
}
