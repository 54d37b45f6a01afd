//===- ArchFormat.cpp - Printing a capability list ------------------------===//
//
// JSON and text forms of a GPU capability list, both driven by the field
// table so they always show every field.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Support/ArchDatabase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir::ks;

static llvm::ArrayRef<FlagName> namesFor(CapabilityField::Kind kind) {
  return kind == CapabilityField::Kind::TensorCores ? getTensorCoreFlagNames()
                                                    : getAsyncCopyFlagNames();
}

std::string mlir::ks::formatFixed(double value, int digits) {
  char buffer[64];
  snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

std::string mlir::ks::formatReal(double value) {
  char buffer[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    snprintf(buffer, sizeof(buffer), "%.1f", value);
    return buffer;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  return buffer;
}

void mlir::ks::printCapabilitiesJSON(llvm::raw_ostream &os, llvm::StringRef chip,
                                     llvm::StringRef sku, const GPUCapabilities &caps) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("chip", chip);
    json.attribute("sku", sku);
    for (const CapabilityField &f : getCapabilityFields()) {
      switch (f.kind) {
      case CapabilityField::Kind::Int:
        json.attribute(f.key, caps.*f.intField);
        break;
      case CapabilityField::Kind::Real:
        // llvm::json prints 17 digits (494.69999999999999); print the
        // shortest exact form instead.
        json.attributeBegin(f.key);
        json.rawValue(formatReal(caps.*f.realField));
        json.attributeEnd();
        break;
      case CapabilityField::Kind::TensorCores:
      case CapabilityField::Kind::AsyncCopies:
        json.attributeArray(f.key, [&] {
          for (llvm::StringRef name : flagNames(caps.*f.maskField, namesFor(f.kind)))
            json.value(name);
        });
        break;
      }
    }
  });
  os << "\n";
}

void mlir::ks::printCapabilitiesText(llvm::raw_ostream &os, llvm::StringRef chip,
                                     llvm::StringRef sku, const GPUCapabilities &caps) {
  os << "GPU capability list: " << sku << " (" << chip << ")\n";
  for (const CapabilityField &f : getCapabilityFields()) {
    os << llvm::format("  %-24s ", f.key);
    switch (f.kind) {
    case CapabilityField::Kind::Int:
      os << caps.*f.intField;
      break;
    case CapabilityField::Kind::Real:
      os << formatReal(caps.*f.realField);
      break;
    case CapabilityField::Kind::TensorCores:
    case CapabilityField::Kind::AsyncCopies: {
      auto names = flagNames(caps.*f.maskField, namesFor(f.kind));
      os << (names.empty() ? std::string("none") : llvm::join(names, ", "));
      break;
    }
    }
    os << "  (" << f.description << ")\n";
  }
}
