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
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

extern "C" {
struct HydrideDialect { MlirStringRef name, irdl; };
struct HydrideLowerOptions { MlirStringRef target, cpu, cacheDir; bool remarks; unsigned proofMs, windowMs, blockMs, maxOps, twoStep, coneOps; };
// A rewrite of lower-to-autollvm (src/ir/rewrites.rs); `options`: 0 target and remarks, 1 also proofs, 2 also search.
struct HydrideRewrite { MlirStringRef argument, description; unsigned options; };
struct HydrideIsa { MlirStringRef name, title, defaultTarget; }; // the ISA registry (src/targets.rs)
const HydrideRewrite *hydride_rewrites(size_t *count);
const HydrideIsa *hydride_isas(size_t *count);
MlirStringRef hydride_target_help();
MlirStringRef hydride_cpu_help();
MlirStringRef hydride_target_problem(MlirStringRef target); // empty if `target` names one
MlirStringRef hydride_cpu_problem(MlirStringRef target, MlirStringRef cpu); // empty if `cpu` is one for `target`
bool hydride_run_rewrite(MlirOperation root, size_t index, const HydrideLowerOptions *options);
bool hydride_autollvm_to_target(MlirOperation root, MlirStringRef isa);
bool hydride_target_to_llvm(MlirOperation root, MlirStringRef isa);
bool hydride_expand(MlirOperation root, MlirStringRef isa); // isa empty: autollvm
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
// A remark is emitted at the op's location, without MLIR's "see current operation" note: printing
// the op numbers and verifies its whole function, per remark. An error still prints the op.
extern "C" void hydride_emit(MlirOperation op, bool remark, MlirStringRef text) {
  if (remark)
    mlir::emitRemark(unwrap(op)->getLoc()) << unwrap(text);
  else
    unwrap(op)->emitOpError() << unwrap(text);
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
constexpr unsigned proofMsDefault = 20000, windowMsDefault = 60000, blockMsDefault = 20000, maxOpsDefault = 16, twoStepDefault = 8000,
                   coneOpsDefault = 4096;
#define HYDRIDE_TARGET_OPTIONS(Option) \
  Option<std::string> target{*this, "target", llvm::cl::desc(unwrap(hydride_target_help())), llvm::cl::init("native")}; \
  Option<std::string> cpu{*this, "cpu", llvm::cl::desc(unwrap(hydride_cpu_help()))}; \
  Option<bool> remarks{*this, "remarks", llvm::cl::desc("Emit remarks: what was rewritten, and why what was left unchanged was")};
#define HYDRIDE_PROOF_OPTIONS(Option) \
  Option<std::string> cacheDir{*this, "cache-dir", llvm::cl::desc("Memo directory (default: $HYDRIDE_CACHE_DIR, else ~/.cache/hydride)")}; \
  Option<unsigned> proofMs{*this, "proof-ms", llvm::cl::desc("Z3 budget per proof, in ms"), llvm::cl::init(proofMsDefault)};
#define HYDRIDE_SEARCH_OPTIONS(Option) \
  Option<unsigned> windowMs{*this, "window-ms", llvm::cl::desc("Wall-clock limit per window, in ms (a window out of time is left " \
      "unchanged, not memoized)"), llvm::cl::init(windowMsDefault)}; \
  Option<unsigned> blockMs{*this, "block-ms", llvm::cl::desc("Wall-clock limit per block, in ms: once spent, the block's remaining " \
      "windows are left unchanged (counted in its summary remark)"), llvm::cl::init(blockMsDefault)}; \
  Option<unsigned> maxOps{*this, "max-ops", llvm::cl::desc("Largest window, in ops"), llvm::cl::init(maxOpsDefault)}; \
  Option<unsigned> twoStep{*this, "two-step-budget", llvm::cl::desc("Pairings of a second instruction with an intermediate value " \
      "screened per window (0: one instruction only)"), llvm::cl::init(twoStepDefault)}; \
  Option<unsigned> coneOps{*this, "cone-ops", llvm::cl::desc("Largest cone (all a value is computed from in its " \
      "block) searched whole where the windows at its root find nothing and one instruction can read its inputs " \
      "(0: none)"), llvm::cl::init(coneOpsDefault)};

// A pass that is one Rust function over its root, named at registration from Rust's tables; `output`: the dialect it
// creates besides arith and vector (only that one is loaded).
template <typename Self> struct Named : mlir::PassWrapper<Self, mlir::OperationPass<>> {
  std::string argument, description, output, subject; // subject: the rewrite's index or the ISA's name, for Rust
  Named(std::string argument, std::string description, std::string output, std::string subject)
      : argument(argument), description(description), output(output), subject(subject) {}
  Named(const Named &o) : mlir::PassWrapper<Self, mlir::OperationPass<>>(o), argument(o.argument),
      description(o.description), output(o.output), subject(o.subject) {}
  llvm::StringRef getArgument() const final { return argument; }
  llvm::StringRef getDescription() const final { return description; }
  llvm::StringRef getName() const final { return argument; }
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    registry.insert<mlir::arith::ArithDialect, mlir::vector::VectorDialect>();
    if (output == "llvm") registry.insert<mlir::LLVM::LLVMDialect>();
    if (output == "autollvm") hydride_insert_autollvm(&registry);
    for (const HydrideDialect &d : dialects) if (unwrap(d.name) == output) insertDialect(registry, d);
  }
  void runOnOperation() final {
    if (!static_cast<Self *>(this)->run(wrap(this->getOperation()))) this->signalPassFailure();
  }
};
#define HYDRIDE_PASS(Name) struct Name : Named<Name> { MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Name) \
  using Named::Named; Name(const Name &o) : Named(o) {}

// The options of lower-to-autollvm, the pipeline of all rewrites.
struct LowerOptions : mlir::PassPipelineOptions<LowerOptions> {
  HYDRIDE_TARGET_OPTIONS(Option) HYDRIDE_PROOF_OPTIONS(Option) HYDRIDE_SEARCH_OPTIONS(Option)
};
// A rewrite pass declares the options its set reads; the others keep lower-to-autollvm's defaults.
#define HYDRIDE_REWRITE_PASS(Name, Options) HYDRIDE_PASS(Name) Options \
  bool run(MlirOperation root) { \
    HydrideLowerOptions o{{}, {}, {}, false, proofMsDefault, windowMsDefault, blockMsDefault, maxOpsDefault, twoStepDefault, \
      coneOpsDefault}; \
    std::string t, c, d; read(o, t, c, d); \
    return hydride_run_rewrite(root, std::stoul(subject), &o); \
  }
HYDRIDE_REWRITE_PASS(TargetRewrite, HYDRIDE_TARGET_OPTIONS(Option))
  void read(HydrideLowerOptions &o, std::string &t, std::string &c, std::string &) {
    t = target; c = cpu; o.target = wrap(llvm::StringRef(t)); o.cpu = wrap(llvm::StringRef(c)); o.remarks = remarks;
  }
  void set(const LowerOptions &l) { target = l.target; cpu = l.cpu; remarks = l.remarks; }
};
HYDRIDE_REWRITE_PASS(ProofRewrite, HYDRIDE_TARGET_OPTIONS(Option) HYDRIDE_PROOF_OPTIONS(Option))
  void read(HydrideLowerOptions &o, std::string &t, std::string &c, std::string &d) {
    t = target; c = cpu; d = cacheDir; o.target = wrap(llvm::StringRef(t)); o.cpu = wrap(llvm::StringRef(c));
    o.cacheDir = wrap(llvm::StringRef(d)); o.remarks = remarks; o.proofMs = proofMs;
  }
  void set(const LowerOptions &l) {
    target = l.target; cpu = l.cpu; remarks = l.remarks; cacheDir = l.cacheDir; proofMs = l.proofMs;
  }
};
HYDRIDE_REWRITE_PASS(SearchRewrite, HYDRIDE_TARGET_OPTIONS(Option) HYDRIDE_PROOF_OPTIONS(Option) HYDRIDE_SEARCH_OPTIONS(Option))
  void read(HydrideLowerOptions &o, std::string &t, std::string &c, std::string &d) {
    t = target; c = cpu; d = cacheDir;
    o = {wrap(llvm::StringRef(t)), wrap(llvm::StringRef(c)), wrap(llvm::StringRef(d)), remarks, proofMs, windowMs, blockMs,
         maxOps, twoStep, coneOps};
  }
  void set(const LowerOptions &l) {
    target = l.target; cpu = l.cpu; remarks = l.remarks; cacheDir = l.cacheDir; proofMs = l.proofMs;
    windowMs = l.windowMs; blockMs = l.blockMs; maxOps = l.maxOps; twoStep = l.twoStep;
    coneOps = l.coneOps;
  }
};
HYDRIDE_PASS(ToTarget) bool run(MlirOperation root) { return hydride_autollvm_to_target(root, wrap(llvm::StringRef(subject))); } };
HYDRIDE_PASS(ToLLVM) bool run(MlirOperation root) { return hydride_target_to_llvm(root, wrap(llvm::StringRef(subject))); } };
HYDRIDE_PASS(Expand) bool run(MlirOperation root) { return hydride_expand(root, wrap(llvm::StringRef(subject))); } };

// The rewrite `index` of Rust's table, with lower-to-autollvm's options if given.
std::unique_ptr<mlir::Pass> rewritePass(size_t index, const LowerOptions *options) {
  size_t count; const HydrideRewrite &r = hydride_rewrites(&count)[index];
  std::string argument(unwrap(r.argument)), description(unwrap(r.description)), output = r.options == 2 ? "autollvm" : "";
  auto make = [&](auto *tag) -> std::unique_ptr<mlir::Pass> {
    auto pass = std::make_unique<std::remove_pointer_t<decltype(tag)>>(argument, description, output, std::to_string(index));
    if (options) pass->set(*options);
    return pass;
  };
  if (r.options == 0) return make((TargetRewrite *)nullptr);
  if (r.options == 1) return make((ProofRewrite *)nullptr);
  return make((SearchRewrite *)nullptr);
}
struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> target{*this, "target", llvm::cl::desc("lower-to-autollvm's target (default: the one in the pipeline description)")};
  Option<std::string> cpu{*this, "cpu", llvm::cl::desc("lower-to-autollvm's cpu (default: the target's)")};
};
} // namespace

extern "C" void hydride_register_passes(const HydrideDialect *all, size_t count) {
  dialects = llvm::ArrayRef(all, count);
  size_t rewrites, isas;
  hydride_rewrites(&rewrites);
  for (size_t i = 0; i < rewrites; ++i) mlir::registerPass([i] { return rewritePass(i, nullptr); });
  // As PassPipelineRegistration, with the target checked when the pipeline is built, not by its first pass.
  mlir::registerPassPipeline("lower-to-autollvm", "Replace arith/vector dataflow by autollvm class ops: the pipeline of the "
      "hydride rewrites before, around and after synthesis, each proved equal by Z3",
      [rewrites](mlir::OpPassManager &pm, llvm::StringRef text, llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> error) {
        LowerOptions o;
        if (mlir::failed(o.parseFromString(text))) return mlir::failure();
        std::string target = o.target;
        llvm::StringRef problem = unwrap(hydride_target_problem(wrap(llvm::StringRef(target))));
        if (!problem.empty()) return error("lower-to-autollvm: " + problem);
        std::string cpu = o.cpu;
        problem = unwrap(hydride_cpu_problem(wrap(llvm::StringRef(target)), wrap(llvm::StringRef(cpu))));
        if (!problem.empty()) return error("lower-to-autollvm: " + problem);
        for (size_t i = 0; i < rewrites; ++i) pm.addPass(rewritePass(i, &o));
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> handler) { handler(LowerOptions()); });
  mlir::registerPass([] { return std::make_unique<Expand>("expand-autollvm", "Replace each autollvm op by the vector/arith ops "
      "that compute its semantics (its instruction's, generated from the semantics IR): portable code for any target", "", ""); });
  const HydrideIsa *all_isas = hydride_isas(&isas);
  for (const HydrideIsa &isa : llvm::ArrayRef(all_isas, isas)) {
    std::string name(unwrap(isa.name)), title(unwrap(isa.title)), first(unwrap(isa.defaultTarget)), dialect = "hydride_" + name;
    mlir::registerPass([=] { return std::make_unique<ToTarget>("convert-autollvm-to-" + name, "Replace each autollvm op by the " +
        dialect + " instruction op that implements its parameters and types", dialect, name); });
    mlir::registerPass([=] { return std::make_unique<ToLLVM>("convert-hydride-" + name + "-to-llvm", "Replace each " + dialect +
        " op by what clang emits for its " + title + " intrinsic: a call of its LLVM intrinsic (a select for mask forms) or a "
        "generic instruction", "llvm", name); });
    mlir::registerPass([=] { return std::make_unique<Expand>("expand-hydride-" + name, "Replace each " + dialect + " op by the "
        "vector/arith ops that compute its instruction's semantics (generated from the semantics IR), for its immediates",
        "", name); });
    // Synthesis for the target, the ISA's conversions, then upstream's to the LLVM dialect.
    mlir::PassPipelineRegistration<PipelineOptions>("hydride-" + name + "-to-llvm", "lower-to-autollvm{target=…} (default " + first +
        "), convert-autollvm-to-" + name + ", convert-hydride-" + name + "-to-llvm, then the upstream vector/arith/ub/func "
        "conversions to the LLVM dialect",
        [name, first](mlir::OpPassManager &pm, const PipelineOptions &o) {
          std::string t = std::string(o.target).empty() ? first : std::string(o.target);
          std::string c = std::string(o.cpu).empty() ? "" : " cpu=" + std::string(o.cpu);
          (void)mlir::parsePassPipeline("lower-to-autollvm{target=" + t + c + "},convert-autollvm-to-" + name + ",convert-hydride-" + name +
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
