// convert-hydride-x86-to-llvm: every hydride_x86 op becomes a call of the
// LLVM intrinsic clang emits for its intrinsic (`llvm.call_intrinsic`),
// operands bitcast to the intrinsic's parameter types, immediates as
// constants, and for AVX-512 mask forms a `select` on the mask. The plan
// per op comes from the Rust side (generated/x86/llvm-calls.json).
#include "shim.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"

namespace {
unsigned bitWidth(mlir::Type t) {
  if (auto v = llvm::dyn_cast<mlir::VectorType>(t))
    return v.getNumElements() * v.getElementTypeBitWidth();
  return t.getIntOrFloatBitWidth();
}

struct ConvertHydrideX86ToLLVM : mlir::PassWrapper<ConvertHydrideX86ToLLVM, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertHydrideX86ToLLVM)

  llvm::StringRef getArgument() const final { return "convert-hydride-x86-to-llvm"; }
  llvm::StringRef getDescription() const final {
    return "Replace each hydride_x86 op by a call of its LLVM intrinsic (and a select for mask forms)";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    registry.insert<mlir::LLVM::LLVMDialect>();
  }

  void runOnOperation() final {
    llvm::SmallVector<mlir::Operation *> ops;
    getOperation()->walk([&](mlir::Operation *op) {
      if (op->getName().getDialectNamespace() == "hydride_x86")
        ops.push_back(op);
    });
    bool ok = true;
    for (mlir::Operation *op : ops)
      ok &= mlir::succeeded(convert(op));
    if (!ok)
      signalPassFailure();
  }

  // `v` as type `t` (same number of bits), through llvm.bitcast.
  static mlir::FailureOr<mlir::Value> castTo(mlir::OpBuilder &b, mlir::Operation *op, mlir::Value v, mlir::Type t) {
    if (v.getType() == t)
      return v;
    if (bitWidth(v.getType()) != bitWidth(t))
      return op->emitOpError() << "cannot pass " << v.getType() << " as " << t << " (different sizes)";
    return mlir::Value(mlir::LLVM::BitcastOp::create(b, op->getLoc(), t, v));
  }

  static mlir::LogicalResult convert(mlir::Operation *op) {
    llvm::StringRef name = op->getName().getStringRef();
    char *error = nullptr;
    auto answer = hydride::takeAnswer(hydride_llvm_call_of(name.data(), name.size(), &error), &error,
                                      [&] { return op->emitOpError() << "cannot be lowered to LLVM: "; });
    if (mlir::failed(answer))
      return mlir::failure();
    const std::string &plan = *answer;
    mlir::MLIRContext *ctx = op->getContext();
    mlir::OpBuilder b(op);
    mlir::Location loc = op->getLoc();
    auto parse = [&](llvm::StringRef text) { return mlir::parseType(text, ctx); };
    llvm::StringRef intrinsic;
    mlir::Type resultType;
    llvm::SmallVector<mlir::Value> args;
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(plan).split(lines, '\n', -1, /*KeepEmpty=*/false);
    llvm::SmallVector<llvm::StringRef> select;
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef> w;
      line.split(w, ' ', -1, /*KeepEmpty=*/false);
      if (w[0] == "intrinsic") {
        intrinsic = w[1];
      } else if (w[0] == "result") {
        resultType = parse(w[1]);
      } else if (w[0] == "operand") {
        mlir::Type t = parse(w[2]);
        unsigned k = std::stoul(w[1].str());
        if (!t || k >= op->getNumOperands())
          return op->emitOpError() << "malformed LLVM call plan: " << line;
        auto v = castTo(b, op, op->getOperand(k), t);
        if (mlir::failed(v))
          return mlir::failure();
        args.push_back(*v);
      } else if (w[0] == "immediate") {
        mlir::Type t = parse(w[2]);
        auto attr = op->getAttrOfType<mlir::IntegerAttr>(w[1]);
        if (!t || !attr)
          return op->emitOpError() << "needs the integer attribute '" << w[1] << "'";
        auto value = mlir::IntegerAttr::get(t, attr.getValue().sextOrTrunc(t.getIntOrFloatBitWidth()));
        args.push_back(mlir::LLVM::ConstantOp::create(b, loc, t, value));
      } else if (w[0] == "select") {
        select.assign(w.begin(), w.end());
      }
    }
    if (intrinsic.empty() || !resultType)
      return op->emitOpError() << "malformed LLVM call plan";
    mlir::Value result =
        mlir::LLVM::CallIntrinsicOp::create(b, loc, resultType, b.getStringAttr(intrinsic), args).getResult(0);
    mlir::Type opType = op->getResult(0).getType();
    if (!select.empty()) {
      unsigned maskIndex = std::stoul(select[1].str());
      unsigned elements = std::stoul(select[2].str());
      unsigned elemWidth = std::stoul(select[3].str());
      if (elements * elemWidth != bitWidth(opType))
        return op->emitOpError() << "mask form over " << elements << " of the result's elements is not supported";
      auto lanes = mlir::VectorType::get({elements}, b.getIntegerType(elemWidth));
      mlir::Value mask = op->getOperand(maskIndex);
      auto maskType = llvm::dyn_cast<mlir::VectorType>(mask.getType());
      if (!maskType || maskType.getNumElements() < elements)
        return op->emitOpError() << "mask " << mask.getType() << " does not cover " << elements << " elements";
      if (maskType.getNumElements() > elements) {
        llvm::SmallVector<int32_t> first(elements);
        for (unsigned i = 0; i < elements; ++i)
          first[i] = i;
        mask = mlir::LLVM::ShuffleVectorOp::create(b, loc, mask, mask, first);
      }
      auto computed = castTo(b, op, result, lanes);
      if (mlir::failed(computed))
        return mlir::failure();
      mlir::Value otherwise;
      if (select[4] == "zero") {
        otherwise = mlir::LLVM::ZeroOp::create(b, loc, lanes);
      } else {
        auto kept = castTo(b, op, op->getOperand(std::stoul(select[4].str())), lanes);
        if (mlir::failed(kept))
          return mlir::failure();
        otherwise = *kept;
      }
      result = mlir::LLVM::SelectOp::create(b, loc, mask, *computed, otherwise);
    }
    auto back = castTo(b, op, result, opType);
    if (mlir::failed(back))
      return mlir::failure();
    op->getResult(0).replaceAllUsesWith(*back);
    op->erase();
    return mlir::success();
  }
};
} // namespace

void hydride::registerToLLVMPass() { mlir::PassRegistration<ConvertHydrideX86ToLLVM>(); }
