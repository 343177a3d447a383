// lower-to-autollvm: each block's arith/vector dataflow goes to the Rust
// synthesizer as text; the plan that comes back (windows replaced by
// autollvm class ops, each proved equal by Z3) is applied here. Operands
// and results are reshaped with vector.shape_cast / vector.bitcast where the
// class op sees the same bits with another type.
#include "shim.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace {
// `v` as `t` (same number of bits): shape_cast to one dimension, bitcast,
// shape_cast to t's shape.
mlir::Value reshape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::Type t) {
  if (v.getType() == t)
    return v;
  auto from = llvm::dyn_cast<mlir::VectorType>(v.getType());
  auto to = llvm::dyn_cast<mlir::VectorType>(t);
  if (!from || !to)
    return mlir::arith::BitcastOp::create(b, loc, t, v);
  auto flat = [](mlir::VectorType vt) {
    return mlir::VectorType::get({vt.getNumElements()}, vt.getElementType());
  };
  if (from.getRank() != 1)
    v = mlir::vector::ShapeCastOp::create(b, loc, flat(from), v);
  mlir::VectorType flatTo = flat(to);
  if (llvm::cast<mlir::VectorType>(v.getType()) != flatTo)
    v = mlir::vector::BitCastOp::create(b, loc, flatTo, v);
  if (flatTo != to)
    v = mlir::vector::ShapeCastOp::create(b, loc, to, v);
  return v;
}

struct LowerToAutollvm : mlir::PassWrapper<LowerToAutollvm, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerToAutollvm)

  LowerToAutollvm() = default;
  LowerToAutollvm(const LowerToAutollvm &other) : PassWrapper(other) {}

  Option<std::string> target{*this, "target", llvm::cl::desc("Target instruction set: native (what this host executes, less "
                                            "HYDRIDE_WITHHOLD_FEATURES), x86-avx512 (all modelled x86) or x86-avx2 "
                                            "(SSE2 to AVX2); the named ones compile on any host"),
                             llvm::cl::init("native")};
  Option<bool> remarks{*this, "remarks",
                       llvm::cl::desc("Emit a remark for every window left unchanged, saying why"),
                       llvm::cl::init(false)};
  Option<std::string> cacheDir{
      *this, "cache-dir",
      llvm::cl::desc("Directory of the synthesis memo (default: $HYDRIDE_CACHE_DIR, else ~/.cache/hydride)"),
      llvm::cl::init("")};
  Option<unsigned> proofMs{*this, "proof-ms", llvm::cl::desc("Z3 budget per proof, in milliseconds"),
                           llvm::cl::init(20000)};
  Option<unsigned> windowMs{*this, "window-ms",
                            llvm::cl::desc("Wall-clock limit per window, in milliseconds (a window out of time is "
                                           "left unchanged and not memoized)"),
                            llvm::cl::init(60000)};
  Option<unsigned> maxOps{*this, "max-ops", llvm::cl::desc("Largest window, in ops"), llvm::cl::init(16)};
  Option<unsigned> twoStepBudget{
      *this, "two-step-budget",
      llvm::cl::desc("Pairings of a second instruction with an intermediate value screened per window (0: one "
                     "instruction only)"),
      llvm::cl::init(20000)};

  llvm::StringRef getArgument() const final { return "lower-to-autollvm"; }
  llvm::StringRef getDescription() const final {
    return "Replace arith/vector dataflow by autollvm class ops found by synthesis and proved equal by Z3";
  }
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    registry.insert<mlir::vector::VectorDialect, mlir::arith::ArithDialect>();
  }

  void runOnOperation() final {
    llvm::SmallVector<mlir::Block *> blocks;
    getOperation()->walk([&](mlir::Block *b) { blocks.push_back(b); });
    for (mlir::Block *b : blocks)
      if (mlir::failed(lowerBlock(*b)))
        return signalPassFailure();
  }

  mlir::LogicalResult lowerBlock(mlir::Block &block) {
    llvm::SmallVector<mlir::Operation *> ops;
    llvm::DenseMap<mlir::Value, unsigned> ids;
    llvm::SmallVector<mlir::Value> values;
    auto id = [&](mlir::Value v) {
      auto [it, inserted] = ids.try_emplace(v, values.size());
      if (inserted)
        values.push_back(v);
      return it->second;
    };
    std::string text;
    llvm::raw_string_ostream os(text);
    // Constants defined outside the block (hoisted out of a loop) are part
    // of the dataflow: described first, as if they were inside.
    llvm::SetVector<mlir::Operation *> described;
    for (mlir::Operation &op : block)
      for (mlir::Value v : op.getOperands())
        if (mlir::Operation *def = v.getDefiningOp())
          if (def->getBlock() != &block && llvm::isa<mlir::arith::ConstantOp>(def))
            described.insert(def);
    for (mlir::Operation &op : block)
      described.insert(&op);
    for (mlir::Operation *opPtr : described) {
      mlir::Operation &op = *opPtr;
      if (op.getNumResults() == 0 && op.getNumOperands() == 0)
        continue;
      unsigned index = ops.size();
      ops.push_back(&op);
      // Value numbers, then their types.
      auto numbered = [&](auto range) {
        for (mlir::Value v : range)
          os << id(v) << " ";
        os << "\t";
        for (mlir::Value v : range)
          os << v.getType() << "\x1f";
        os << "\t";
      };
      os << index << "\t" << op.getName().getStringRef() << "\t";
      numbered(op.getOperands());
      numbered(op.getResults());
      for (mlir::NamedAttribute a : op.getAttrs()) {
        os << a.getName().getValue() << "=";
        a.getValue().print(os);
        os << "\x1f";
      }
      os << "\t" << (op.getNumRegions() ? 1 : 0) << "\n";
    }
    if (ops.empty())
      return mlir::success();
    char *error = nullptr;
    std::string dir = cacheDir;
    std::string options;
    llvm::raw_string_ostream(options) << "target=" << target << " proof-ms=" << proofMs << " window-ms=" << windowMs
                                      << " max-ops=" << maxOps << " two-step-budget=" << twoStepBudget;
    auto plan = hydride::takeAnswer(
        hydride_lower_block(text.data(), text.size(), options.data(), options.size(), dir.data(), dir.size(), &error),
        &error,
        [&] { return ops.front()->emitError() << "lower-to-autollvm: "; });
    if (mlir::failed(plan))
      return mlir::failure();
    return apply(*plan, ops, values);
  }

  mlir::LogicalResult apply(const std::string &plan, llvm::ArrayRef<mlir::Operation *> ops,
                            llvm::ArrayRef<mlir::Value> values) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(plan).split(lines, '\n', -1, /*KeepEmpty=*/false);
    llvm::SetVector<mlir::Operation *> windowOps;
    for (size_t i = 0; i < lines.size(); ++i) {
      auto [kind, rest] = lines[i].split(' ');
      if (kind == "remark") {
        auto [index, message] = rest.split(' ');
        if (remarks)
          ops[std::stoul(index.str())]->emitRemark() << message;
        continue;
      }
      if (kind != "rewrite")
        continue;
      mlir::Operation *root = ops[std::stoul(rest.str())];
      mlir::MLIRContext *ctx = root->getContext();
      mlir::OpBuilder b(root);
      mlir::Location loc = root->getLoc();
      llvm::SmallVector<mlir::Value> created;
      llvm::DenseMap<std::pair<mlir::Value, mlir::Type>, mlir::Value> reshaped;
      std::optional<mlir::OperationState> state;
      for (++i; i < lines.size() && lines[i] != "end"; ++i) {
        auto [k, r] = lines[i].split(' ');
        if (k == "op") {
          state.emplace(loc, mlir::OperationName(r, ctx));
        } else if (k == "attr" && state) {
          auto [name, value] = r.split(' ');
          mlir::Attribute attr = mlir::parseAttribute(value, ctx);
          if (!attr)
            return root->emitError() << "lower-to-autollvm: bad attribute in plan: " << value;
          state->addAttribute(name, attr);
        } else if (k == "operand" && state) {
          auto [ref, t] = r.split(' ');
          mlir::Type type = mlir::parseType(t, ctx);
          size_t n = std::stoul(ref.drop_front().str());
          bool fromStep = ref.starts_with("s");
          if (!type || (fromStep ? n >= created.size() : n >= values.size()))
            return root->emitError() << "lower-to-autollvm: bad operand in plan: " << r;
          // A value read twice as one type (a one-operand swizzle) is reshaped once.
          mlir::Value v = fromStep ? created[n] : values[n];
          auto [it, fresh] = reshaped.try_emplace({v, type}, mlir::Value());
          if (fresh)
            it->second = reshape(b, loc, v, type);
          state->addOperands(it->second);
        } else if (k == "result" && state) {
          mlir::Type type = mlir::parseType(r, ctx);
          if (!type)
            return root->emitError() << "lower-to-autollvm: bad type in plan: " << r;
          mlir::Operation *op;
          if (state->name.getStringRef() == mlir::vector::ShuffleOp::getOperationName()) {
            // Built by its own builder: the mask is a property.
            auto mask = llvm::dyn_cast_if_present<mlir::DenseI64ArrayAttr>(state->attributes.get("mask"));
            if (!mask || state->operands.size() != 2)
              return root->emitError() << "lower-to-autollvm: bad shuffle in plan";
            op = mlir::vector::ShuffleOp::create(b, loc, state->operands[0], state->operands[1], mask.asArrayRef());
          } else {
            state->addTypes(type);
            op = b.create(*state);
          }
          created.push_back(op->getResult(0));
          state.reset();
        } else if (k == "window") {
          llvm::SmallVector<llvm::StringRef> idx;
          r.split(idx, ' ', -1, false);
          for (llvm::StringRef x : idx)
            windowOps.insert(ops[std::stoul(x.str())]);
        }
      }
      if (created.empty())
        return root->emitError() << "lower-to-autollvm: a rewrite in the plan creates nothing";
      mlir::Value result = reshape(b, loc, created.back(), root->getResult(0).getType());
      root->getResult(0).replaceAllUsesWith(result);
    }
    // The replaced windows' ops, as far as nothing uses them any more
    // (erasing one can free another: repeat until none goes).
    llvm::SmallVector<mlir::Operation *> pending(windowOps.begin(), windowOps.end());
    for (bool erased = true; erased;) {
      erased = false;
      for (mlir::Operation *&op : pending)
        if (op && op->use_empty() && mlir::isPure(op)) {
          op->erase();
          op = nullptr;
          erased = true;
        }
    }
    return mlir::success();
  }
};
} // namespace

void hydride::registerLowerToAutollvmPass() { mlir::PassRegistration<LowerToAutollvm>(); }
