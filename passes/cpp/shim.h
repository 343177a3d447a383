// Declarations shared by the C++ shim files: the Rust functions they call,
// and the op description the Rust side reads.
#pragma once

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

extern "C" {
// Returns nullptr when `desc` is a valid instance of its op, else an error
// message (free with hydride_free_string).
char *hydride_check_op(const char *desc, size_t len);
// The target of an autollvm op instance: "op\n<operand indices>\n<target attr> <class attr>\n..."
// or nullptr with the reason in *error (free both with hydride_free_string).
char *hydride_target_of(const char *desc, size_t len, char **error);
// The LLVM call a hydride_x86 op becomes (line protocol of
// passes/src/llvm_calls.rs), or nullptr with the reason in *error.
char *hydride_llvm_call_of(const char *name, size_t len, char **error);
// lower-to-autollvm's plan for one block (line protocol of
// passes/src/synth/lower.rs), or nullptr with the reason in *error.
char *hydride_lower_block(const char *block, size_t block_len, const char *options, size_t options_len,
                          const char *cache_dir, size_t cache_dir_len, char **error);
void hydride_free_string(char *s);
}

namespace hydride {
// The op as text: name, then `attr NAME VALUE`, `operand TYPE`,
// `result TYPE`, `regions N` lines (integers in decimal, strings bare).
std::string describe(mlir::Operation *op);
// What a Rust call answered (freed here), or failure after `report()`
// received the reason the call left in *error (also freed; read only here,
// after the call, whatever the order arguments are evaluated in).
mlir::FailureOr<std::string> takeAnswer(char *answer, char **error,
                                        llvm::function_ref<mlir::InFlightDiagnostic()> report);
// Registers convert-hydride-x86-to-llvm (to_llvm.cpp).
void registerToLLVMPass();
// Registers lower-to-autollvm (lower_to_autollvm.cpp).
void registerLowerToAutollvmPass();
// Registers the hydride-x86-to-llvm pipeline (pipeline.cpp).
void registerPipelines();
} // namespace hydride
