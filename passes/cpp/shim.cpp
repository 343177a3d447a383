// What MLIR's C API cannot do (the rest is Rust on melior, src/ffi.rs): register the dialects and passes (with
// options), the target dialects' verifier hook, remarks, combining kinds, 128-bit attributes, hydride-opt.
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/IRDL/IR/IRDL.h"
#include "mlir/Dialect/IRDL/IRDLLoading.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ExtensibleDialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

extern "C" {
struct HydrideDialect { MlirStringRef name, irdl; };
struct HydrideLowerOptions { MlirStringRef target, cacheDir; bool remarks; unsigned proofMs, windowMs, blockMs, maxOps, twoStep; };
bool hydride_lower_to_autollvm(MlirOperation root, const HydrideLowerOptions *options);
bool hydride_autollvm_to_target(MlirOperation root, MlirStringRef isa);
bool hydride_target_to_llvm(MlirOperation root, MlirStringRef isa);
void hydride_insert_autollvm(mlir::DialectRegistry *registry); // compiled from ODS (autollvm.cpp)
}
namespace hydride { mlir::LogicalResult verifyVariant(mlir::Operation *op); } // autollvm.cpp
static llvm::ArrayRef<HydrideDialect> dialects; // the target dialects, IRDL

// A target dialect is parsed from its IRDL (checked in CI, not here) when first asked for, by the parser or a pass.
// Its ops are DynamicOpDefinitions: IRDL checks each operand and attribute, Rust whether they fit together.
static void insertDialect(mlir::DialectRegistry &registry, const HydrideDialect &d) {
  registry.insert(mlir::TypeID::get<void>(), unwrap(d.name), [d](mlir::MLIRContext *ctx) -> mlir::Dialect * {
    ctx->loadDialect<mlir::irdl::IRDLDialect>();
    auto module = mlir::parseSourceString<mlir::ModuleOp>(unwrap(d.irdl), mlir::ParserConfig(ctx, false));
    if (!module || mlir::failed(mlir::irdl::loadDialects(*module)))
      llvm::report_fatal_error("hydride: an embedded dialect definition does not load");
    for (mlir::RegisteredOperationName name : ctx->getRegisteredOperations())
      if (name.getDialectNamespace() == unwrap(d.name)) {
        auto *impl = static_cast<mlir::OperationName::Impl *>(const_cast<void *>(name.getAsOpaquePointer()));
        static_cast<mlir::DynamicOpDefinition *>(impl)->setVerifyRegionFn(hydride::verifyVariant);
      }
    return ctx->getLoadedDialect(unwrap(d.name));
  });
}
extern "C" void hydride_register_dialects(mlir::DialectRegistry *registry, const HydrideDialect *all, size_t count) {
  dialects = llvm::ArrayRef(all, count);
  hydride_insert_autollvm(registry);
  for (const HydrideDialect &d : dialects) insertDialect(*registry, d);
}
extern "C" void hydride_emit(MlirOperation op, bool remark, MlirStringRef text) {
  (remark ? unwrap(op)->emitRemark() : unwrap(op)->emitOpError()) << unwrap(text);
}
extern "C" MlirStringRef hydride_combining_kind(MlirAttribute attr) {
  auto kind = llvm::dyn_cast<mlir::vector::CombiningKindAttr>(unwrap(attr));
  return kind ? wrap(mlir::vector::stringifyCombiningKind(kind.getValue())) : MlirStringRef{nullptr, 0};
}
extern "C" MlirAttribute hydride_int_attr(MlirType type, uint64_t low, uint64_t high) { // up to 128 bits
  uint64_t words[] = {low, high};
  return wrap(mlir::IntegerAttr::get(unwrap(type), llvm::APInt(unwrap(type).getIntOrFloatBitWidth(), words)));
}

namespace {
// A pass that is one Rust function over its root; `output`: the dialect it creates (only that one is loaded).
template <typename Self> struct Forward : mlir::PassWrapper<Self, mlir::OperationPass<>> {
  Forward() = default;
  Forward(const Forward &other) : mlir::PassWrapper<Self, mlir::OperationPass<>>(other) {}
  llvm::StringRef getArgument() const final { return Self::argument; }
  llvm::StringRef getDescription() const final { return Self::description; }
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    registry.insert<mlir::arith::ArithDialect, mlir::vector::VectorDialect>();
    llvm::StringRef output = Self::output;
    if (output == "llvm") registry.insert<mlir::LLVM::LLVMDialect>();
    if (output == "autollvm") hydride_insert_autollvm(&registry);
    for (const HydrideDialect &d : dialects) if (unwrap(d.name) == output) insertDialect(registry, d);
  }
  void runOnOperation() final {
    if (!static_cast<Self *>(this)->run(wrap(this->getOperation()))) this->signalPassFailure();
  }
};
#define HYDRIDE_PASS(Name, Arg, Output, Description) struct Name : Forward<Name> { MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Name) \
    static constexpr const char *argument = Arg, *output = Output, *description = Description;

HYDRIDE_PASS(LowerToAutollvm, "lower-to-autollvm", "autollvm", "Replace arith/vector dataflow by autollvm class ops found by synthesis and proved equal by Z3")
  Option<std::string> target{*this, "target", llvm::cl::desc("Target instruction set: native (the x86 this host executes, less "
      "HYDRIDE_WITHHOLD_FEATURES), x86-avx512 (all modelled x86), x86-avx2 (SSE2 to AVX2), aarch64-neon (Armv8.0 Advanced SIMD), "
      "aarch64-neon-dotprod-i8mm (Armv8.6 with dot product and i8mm) or hexagon-hvx128 (HVX v66, 128-byte vectors)"),
      llvm::cl::init("native")};
  Option<bool> remarks{*this, "remarks", llvm::cl::desc("Emit a remark for every window left unchanged, saying why")};
  Option<std::string> cacheDir{*this, "cache-dir", llvm::cl::desc("Synthesis memo directory (default: $HYDRIDE_CACHE_DIR, else ~/.cache/hydride)")};
  Option<unsigned> proofMs{*this, "proof-ms", llvm::cl::desc("Z3 budget per proof, in ms"), llvm::cl::init(20000)};
  Option<unsigned> windowMs{*this, "window-ms", llvm::cl::desc("Wall-clock limit per window, in ms (a window out of time is left unchanged, not memoized)"), llvm::cl::init(60000)};
  Option<unsigned> blockMs{*this, "block-ms", llvm::cl::desc("Wall-clock limit per block, in ms: once spent, the block's remaining windows are left unchanged (counted in its summary remark)"), llvm::cl::init(20000)};
  Option<unsigned> maxOps{*this, "max-ops", llvm::cl::desc("Largest window, in ops"), llvm::cl::init(16)};
  Option<unsigned> twoStep{*this, "two-step-budget", llvm::cl::desc("Pairings of a second instruction with an intermediate value screened per window (0: one instruction only)"), llvm::cl::init(8000)};
  LowerToAutollvm() = default; LowerToAutollvm(const LowerToAutollvm &other) : Forward(other) {}
  bool run(MlirOperation root) {
    std::string t = target, dir = cacheDir;
    HydrideLowerOptions o{wrap(llvm::StringRef(t)), wrap(llvm::StringRef(dir)), remarks, proofMs, windowMs, blockMs, maxOps, twoStep};
    return hydride_lower_to_autollvm(root, &o);
  }
};
#define HYDRIDE_TARGET_PASSES(Isa, Name, Title) \
  HYDRIDE_PASS(AutollvmTo##Name, "convert-autollvm-to-" Isa, "hydride_" Isa, "Replace each autollvm op by the hydride_" Isa \
      " instruction op that implements its parameters and types") \
    bool run(MlirOperation root) { return hydride_autollvm_to_target(root, wrap(llvm::StringRef(Isa))); } }; \
  HYDRIDE_PASS(Name##ToLLVM, "convert-hydride-" Isa "-to-llvm", "llvm", "Replace each hydride_" Isa " op by what clang emits " \
      "for its " Title " intrinsic: a call of its LLVM intrinsic (a select for mask forms) or a generic instruction") \
    bool run(MlirOperation root) { return hydride_target_to_llvm(root, wrap(llvm::StringRef(Isa))); } };
HYDRIDE_TARGET_PASSES("x86", X86, "x86")
HYDRIDE_TARGET_PASSES("arm", Arm, "Arm NEON")
HYDRIDE_TARGET_PASSES("hvx", Hvx, "Hexagon HVX")
struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> target{*this, "target", llvm::cl::desc("lower-to-autollvm's target (default: native for x86, "
      "aarch64-neon-dotprod-i8mm for arm, hexagon-hvx128 for hvx)")};
};
} // namespace

extern "C" void hydride_register_passes(const HydrideDialect *all, size_t count) {
  dialects = llvm::ArrayRef(all, count);
  mlir::PassRegistration<LowerToAutollvm>();
  mlir::PassRegistration<AutollvmToX86>(); mlir::PassRegistration<X86ToLLVM>();
  mlir::PassRegistration<AutollvmToArm>(); mlir::PassRegistration<ArmToLLVM>();
  mlir::PassRegistration<AutollvmToHvx>(); mlir::PassRegistration<HvxToLLVM>();
  // One pipeline per ISA: synthesis for the target, the ISA's conversions, then upstream's to the LLVM dialect.
  for (auto [isa, target] : {std::pair{"x86", "native"}, {"arm", "aarch64-neon-dotprod-i8mm"}, {"hvx", "hexagon-hvx128"}}) {
    std::string name = std::string("hydride-") + isa + "-to-llvm", first = target;
    mlir::PassPipelineRegistration<PipelineOptions>(name, "lower-to-autollvm{target=…} (default " + first + "), convert-autollvm-to-" +
        isa + ", convert-hydride-" + isa + "-to-llvm, then the upstream vector/arith/ub/func conversions to the LLVM dialect",
        [isa = std::string(isa), first](mlir::OpPassManager &pm, const PipelineOptions &o) {
          std::string t = std::string(o.target).empty() ? first : std::string(o.target);
          (void)mlir::parsePassPipeline("lower-to-autollvm{target=" + t + "},convert-autollvm-to-" + isa + ",convert-hydride-" + isa +
              "-to-llvm,func.func(lower-vector-multi-reduction),convert-vector-to-llvm,convert-arith-to-llvm,convert-ub-to-llvm,"
              "convert-func-to-llvm,reconcile-unrealized-casts", pm);
        });
  }
}

extern "C" int hydride_opt_main(int argc, char **argv, const HydrideDialect *all, size_t count) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry); mlir::registerAllPasses();
  hydride_register_passes(all, count);
  hydride_register_dialects(&registry, all, count);
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "hydride optimizer driver\n", registry));
}
