// Ops as text for the Rust side of verification and lowering, and the
// answers coming back.
#include "shim.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

std::string hydride::describe(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().getStringRef() << "\n";
  for (mlir::NamedAttribute a : op->getAttrs()) {
    os << "attr " << a.getName().getValue() << " ";
    if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(a.getValue()))
      i.getValue().print(os, /*isSigned=*/true);
    else if (auto s = llvm::dyn_cast<mlir::StringAttr>(a.getValue()))
      os << s.getValue();
    else
      a.getValue().print(os);
    os << "\n";
  }
  for (mlir::Type t : op->getOperandTypes())
    os << "operand " << t << "\n";
  for (mlir::Type t : op->getResultTypes())
    os << "result " << t << "\n";
  os << "regions " << op->getNumRegions() << "\n";
  return text;
}

mlir::FailureOr<std::string> hydride::takeAnswer(char *answer, char **error,
                                                 llvm::function_ref<mlir::InFlightDiagnostic()> report) {
  if (!answer) {
    report() << llvm::Twine(*error ? *error : "no answer");
    hydride_free_string(*error);
    return mlir::failure();
  }
  std::string text(answer);
  hydride_free_string(answer);
  return text;
}
