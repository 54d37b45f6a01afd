//===- KSAttrs.cpp - Attributes of the ks dialect -------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::ks;

#include "kernelskill/Dialect/KS/IR/KSEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kernelskill/Dialect/KS/IR/KSAttrs.cpp.inc"

// Defined here rather than in KSDialect.cpp: registering the attributes needs
// their storage classes, which the generated definitions above provide.
void KSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kernelskill/Dialect/KS/IR/KSAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #ks.arch
//===----------------------------------------------------------------------===//

void mlir::ks::printReal(raw_ostream &os, double value) { os << formatReal(value); }

ParseResult mlir::ks::parseReal(AsmParser &parser, double &value) {
  int64_t asInt;
  OptionalParseResult intResult = parser.parseOptionalInteger(asInt);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    value = static_cast<double>(asInt);
    return success();
  }
  return parser.parseFloat(value);
}

FailureOr<llvm::APFloat> mlir::ks::parseRealParameter(AsmParser &parser) {
  double value;
  if (parseReal(parser, value))
    return failure();
  return llvm::APFloat(value);
}

namespace {

ParseResult parseFlags(AsmParser &parser, StringRef what,
                       llvm::ArrayRef<FlagName> names, uint32_t &mask) {
  mask = 0;
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<uint32_t> bit = flagBit(name, names);
    if (!bit)
      return parser.emitError(loc, "unknown ")
             << what << " '" << name << "'; expected one of: " << joinFlagNames(names);
    mask |= *bit;
    return success();
  });
}

void printFlags(AsmPrinter &printer, uint32_t mask, llvm::ArrayRef<FlagName> names) {
  printer << '[';
  llvm::interleaveComma(flagNames(mask, names), printer.getStream());
  printer << ']';
}

std::string validArchKeys() {
  std::string keys = "chip, sku";
  for (const CapabilityField &f : getCapabilityFields())
    keys += std::string(", ") + f.key;
  return keys;
}
} // namespace

Attribute ArchAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  std::string chip, sku;
  GPUCapabilities caps;
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "#ks.arch has key '") << key << "' twice";
    if (parser.parseEqual())
      return failure();
    if (key == "chip")
      return parser.parseString(&chip);
    if (key == "sku")
      return parser.parseString(&sku);
    const auto *field = llvm::find_if(getCapabilityFields(), [&](const CapabilityField &f) {
      return key == f.key;
    });
    if (field == getCapabilityFields().end())
      return parser.emitError(loc, "unknown #ks.arch key '")
             << key << "'; valid keys: " << validArchKeys();
    switch (field->kind) {
    case CapabilityField::Kind::Int:
      return parser.parseInteger(caps.*(field->intField));
    case CapabilityField::Kind::Real:
      return parseReal(parser, caps.*(field->realField));
    case CapabilityField::Kind::TensorCores:
      return parseFlags(parser, "tensor-core family", getTensorCoreFlagNames(),
                        caps.*(field->maskField));
    case CapabilityField::Kind::AsyncCopies:
      return parseFlags(parser, "async-copy family", getAsyncCopyFlagNames(),
                        caps.*(field->maskField));
    }
    llvm_unreachable("unknown field kind");
  };
  if (parser.parseLess() || parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return {};
  auto requireKey = [&](StringRef key) {
    if (seen.contains(key))
      return true;
    parser.emitError(start, "#ks.arch is missing key '") << key << "'";
    return false;
  };
  if (!requireKey("chip") || !requireKey("sku"))
    return {};
  for (const CapabilityField &f : getCapabilityFields())
    if (!requireKey(f.key))
      return {};
  return parser.getChecked<ArchAttr>(start, parser.getContext(), chip, sku, caps);
}

void ArchAttr::print(AsmPrinter &printer) const {
  const GPUCapabilities &caps = getCaps();
  printer << "<chip = \"" << getChip() << "\", sku = \"" << getSku() << "\"";
  for (const CapabilityField &f : getCapabilityFields()) {
    printer << ", " << f.key << " = ";
    switch (f.kind) {
    case CapabilityField::Kind::Int:
      printer << caps.*(f.intField);
      break;
    case CapabilityField::Kind::Real:
      printReal(printer.getStream(), caps.*(f.realField));
      break;
    case CapabilityField::Kind::TensorCores:
      printFlags(printer, caps.*(f.maskField), getTensorCoreFlagNames());
      break;
    case CapabilityField::Kind::AsyncCopies:
      printFlags(printer, caps.*(f.maskField), getAsyncCopyFlagNames());
      break;
    }
  }
  printer << ">";
}

LogicalResult ArchAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef chip,
                               StringRef sku, GPUCapabilities caps) {
  if (!isKnownChip(chip))
    return emitError() << "#ks.arch has unknown chip '" << chip
                       << "'; valid chips: " << joinKnownChips();
  if (sku.empty())
    return emitError() << "#ks.arch needs a non-empty 'sku'";
  if (std::optional<std::string> problem = checkCapabilities(caps))
    return emitError() << "#ks.arch is inconsistent: " << *problem;
  if ((caps.tensorCores & kTensorCoreWGMMA) && getBaseChip(chip) != "sm_90")
    return emitError() << "#ks.arch lists 'wgmma', which only sm_90a has, for chip '" << chip
                       << "'";
  if ((caps.asyncCopies & kAsyncCopyTMA) && getBaseChip(chip).compare_numeric("sm_90") < 0)
    return emitError() << "#ks.arch lists 'tma', which needs sm_90 or newer, for chip '" << chip
                       << "'";
  return success();
}

ArchAttr mlir::ks::getArchAttr(MLIRContext *ctx, const ArchEntry &entry, StringRef chip) {
  return ArchAttr::get(ctx, chip.empty() ? StringRef(entry.chip) : chip, entry.sku, entry.caps);
}

//===----------------------------------------------------------------------===//
// #ks.workload
//===----------------------------------------------------------------------===//

LogicalResult WorkloadAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   DictionaryAttr scalars, DictionaryAttr buffers) {
  for (NamedAttribute scalar : scalars) {
    if (!isa<IntegerAttr, FloatAttr>(scalar.getValue()))
      return emitError() << "#ks.workload scalar '" << scalar.getName().getValue()
                         << "' must be an integer or a float, got " << scalar.getValue();
  }
  for (NamedAttribute buffer : buffers) {
    auto extent = dyn_cast<IntegerAttr>(buffer.getValue());
    if (!extent || !extent.getType().isSignlessInteger() || extent.getInt() < 0)
      return emitError() << "#ks.workload buffer '" << buffer.getName().getValue()
                         << "' needs a non-negative integer extent (elements), got "
                         << buffer.getValue();
    if (scalars.contains(buffer.getName()))
      return emitError() << "#ks.workload names '" << buffer.getName().getValue()
                         << "' both as a scalar and as a buffer";
  }
  return success();
}

std::optional<int64_t> WorkloadAttr::getBufferExtent(StringRef name) const {
  if (auto extent = getBuffers().getAs<IntegerAttr>(name))
    return extent.getInt();
  return std::nullopt;
}

std::optional<int64_t> WorkloadAttr::getIntScalar(StringRef name) const {
  if (auto value = getScalars().getAs<IntegerAttr>(name))
    return value.getInt();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// #ks.finding and #ks.diagnosis
//===----------------------------------------------------------------------===//

LogicalResult FindingAttr::verify(function_ref<InFlightDiagnostic()> emitError, FindingKind,
                                  Severity, StringRef metric, llvm::APFloat valueAP, Evidence,
                                  llvm::APFloat headroomAP, LocationAttr, StringRef note) {
  double value = valueAP.convertToDouble(), headroom = headroomAP.convertToDouble();
  if (metric.empty())
    return emitError() << "#ks.finding needs a non-empty 'metric'";
  if (!std::isfinite(value))
    return emitError() << "#ks.finding value of '" << metric << "' must be finite";
  if (!(headroom >= 0.0 && headroom <= 1.0))
    return emitError() << "#ks.finding headroom must be in [0, 1] (a fraction of the "
                          "kernel's time), got "
                       << headroom;
  if (note.empty())
    return emitError() << "#ks.finding needs a 'note' that explains it";
  return success();
}

Attribute DiagnosisAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  SmallVector<FindingAttr> findings;
  auto parseFinding = [&]() -> ParseResult {
    FindingAttr finding;
    if (parser.parseAttribute(finding))
      return failure();
    findings.push_back(finding);
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseFinding) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<DiagnosisAttr>(start, parser.getContext(), findings);
}

void DiagnosisAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getFindings(), printer,
                        [&](FindingAttr finding) { printer.printAttribute(finding); });
  printer << "]>";
}

LogicalResult DiagnosisAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<FindingAttr> findings) {
  for (size_t i = 1; i < findings.size(); ++i)
    if (findings[i].getHeadroom().convertToDouble() >
        findings[i - 1].getHeadroom().convertToDouble())
      return emitError() << "#ks.diagnosis findings must be ranked by headroom, largest "
                            "first: finding "
                         << i << " (" << findings[i].getHeadroom().convertToDouble()
                         << ") outranks finding " << i - 1 << " ("
                         << findings[i - 1].getHeadroom().convertToDouble() << ")";
  return success();
}
