// Declarations shared by the C++ shim files: the Rust functions they call,
// and the op description the Rust side reads.
#pragma once

#include "mlir/IR/Operation.h"
#include <string>

extern "C" {
// Returns nullptr when `desc` is a valid instance of its op, else an error
// message (free with hydride_free_string).
char *hydride_check_op(const char *desc, size_t len);
// The target of an autollvm op instance: "op\n<operand indices>\n<target attr> <class attr>\n..."
// or nullptr with the reason in *error (free both with hydride_free_string).
char *hydride_target_of(const char *desc, size_t len, char **error);
void hydride_free_string(char *s);
}

namespace hydride {
// The op as text: name, then `attr NAME VALUE`, `operand TYPE`,
// `result TYPE`, `regions N` lines (integers in decimal, strings bare).
std::string describe(mlir::Operation *op);
} // namespace hydride
