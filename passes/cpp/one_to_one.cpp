// convert-autollvm-to-x86: every autollvm op becomes the target op its
// variant names (operands permuted, immediates copied), one to one.
#include "shim.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"

namespace {
struct ConvertAutollvmToX86 : mlir::PassWrapper<ConvertAutollvmToX86, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertAutollvmToX86)

  llvm::StringRef getArgument() const final { return "convert-autollvm-to-x86"; }
  llvm::StringRef getDescription() const final {
    return "Replace each autollvm op by the hydride_x86 instruction op that implements its parameters and types";
  }

  void runOnOperation() final {
    llvm::SmallVector<mlir::Operation *> ops;
    getOperation()->walk([&](mlir::Operation *op) {
      if (op->getName().getDialectNamespace() == "autollvm")
        ops.push_back(op);
    });
    for (mlir::Operation *op : ops)
      if (mlir::failed(convert(op)))
        return signalPassFailure();
  }

  static mlir::LogicalResult convert(mlir::Operation *op) {
    std::string desc = hydride::describe(op);
    char *error = nullptr;
    auto answer = hydride::takeAnswer(hydride_target_of(desc.data(), desc.size(), &error), &error,
                                      [&] { return op->emitOpError() << "cannot be lowered to x86: "; });
    if (mlir::failed(answer))
      return mlir::failure();
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(*answer).split(lines, '\n', -1, /*KeepEmpty=*/true);
    mlir::OperationState state(op->getLoc(), lines[0]);
    llvm::SmallVector<llvm::StringRef> indices;
    lines[1].split(indices, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef i : indices)
      state.addOperands(op->getOperand(std::stoul(i.str())));
    for (size_t k = 2; k < lines.size(); ++k) {
      auto [target, source] = lines[k].split(' ');
      if (!target.empty())
        state.addAttribute(target, op->getAttr(source));
    }
    state.addTypes(op->getResultTypes());
    mlir::OpBuilder builder(op);
    mlir::Operation *replacement = builder.create(state);
    op->replaceAllUsesWith(replacement);
    op->erase();
    return mlir::success();
  }
};
} // namespace

extern "C" void hydride_register_passes() {
  mlir::PassRegistration<ConvertAutollvmToX86>();
  hydride::registerToLLVMPass();
  hydride::registerLowerToAutollvmPass();
  hydride::registerPipelines();
}
