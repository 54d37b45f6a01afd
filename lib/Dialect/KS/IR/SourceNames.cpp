//===- SourceNames.cpp - The C names the importer records -----------------===//

#include "kernelskill/Dialect/KS/IR/SourceNames.h"
#include "kernelskill/Dialect/KS/IR/KSDialect.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

std::string mlir::ks::getArgumentName(FunctionOpInterface fn, unsigned index) {
  if (auto name = fn.getArgAttrOfType<StringAttr>(index, kNameAttrName))
    return name.str();
  return "arg" + std::to_string(index);
}

std::optional<StringRef> mlir::ks::getSourceVariableName(Value value) {
  Operation *def = value ? value.getDefiningOp() : nullptr;
  if (!def)
    return std::nullopt;
  std::optional<StringRef> found;
  def->getLoc()->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l)) {
      found = named.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}
