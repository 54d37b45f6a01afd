//===- SourceNames.h - The C names the importer records ---------*- C++ -*-===//
//
// ks-translate --import-cuda keeps the source's names in the IR: a function
// argument's C name as its `ks.name` attribute, a local variable's as a NameLoc
// on the op that computes its value. The exporter, the launch spec and the
// analyses read them back through these two functions.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DIALECT_KS_IR_SOURCENAMES_H
#define KERNELSKILL_DIALECT_KS_IR_SOURCENAMES_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>
#include <string>

namespace mlir::ks {

/// Argument `index` of `fn`: its `ks.name`, else "argN".
std::string getArgumentName(FunctionOpInterface fn, unsigned index);

/// The C variable `value` is a value of: a NameLoc on its defining op,
/// possibly inside a fused location; nullopt when none was recorded.
std::optional<StringRef> getSourceVariableName(Value value);

} // namespace mlir::ks

#endif // KERNELSKILL_DIALECT_KS_IR_SOURCENAMES_H
