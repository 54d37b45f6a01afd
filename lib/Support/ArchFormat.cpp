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

using namespace mlir::ks;

static llvm::ArrayRef<FlagName> namesFor(CapabilityField::Kind kind) {
  return kind == CapabilityField::Kind::TensorCores ? getTensorCoreFlagNames()
                                                    : getAsyncCopyFlagNames();
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
        json.attribute(f.key, caps.*f.realField);
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
      os << llvm::format("%g", caps.*f.realField);
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
