//===- KSAttrs.cpp - Attributes of the ks dialect -------------------------===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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
                                  llvm::APFloat headroomAP, LocationAttr,
                                  std::optional<int64_t> subject, StringRef note) {
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
  if (subject && *subject < 0)
    return emitError() << "#ks.finding subject must be the non-negative id of a #ks.access or "
                          "#ks.branch, got "
                       << *subject;
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

//===----------------------------------------------------------------------===//
// #ks.resources, #ks.access, #ks.branch
//===----------------------------------------------------------------------===//

LogicalResult ResourcesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    int64_t registers, int64_t stack, int64_t spillStores,
                                    int64_t spillLoads, int64_t shared, StringRef chip,
                                    int64_t optLevel) {
  if (registers < 0 || stack < 0 || spillStores < 0 || spillLoads < 0 || shared < 0)
    return emitError() << "#ks.resources figures must be non-negative";
  if (!isKnownChip(chip))
    return emitError() << "#ks.resources chip '" << chip
                       << "' is not a known compilation target; valid chips: "
                       << joinKnownChips();
  if (optLevel < 0 || optLevel > 3)
    return emitError() << "#ks.resources opt_level must be in [0, 3], got " << optLevel;
  return success();
}

LogicalResult AccessAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t id,
                                 AccessKind, AccessSpace, AccessPatternKind,
                                 std::optional<int64_t>, llvm::APFloat sectors,
                                 llvm::APFloat idealSectors, llvm::APFloat wavefronts,
                                 llvm::APFloat warpsPerElement, bool) {
  if (id < 0)
    return emitError() << "#ks.access id must be non-negative, got " << id;
  for (const llvm::APFloat &v : {sectors, idealSectors, wavefronts, warpsPerElement})
    if (!std::isfinite(v.convertToDouble()) || v.convertToDouble() < 0)
      return emitError() << "#ks.access figures must be finite and non-negative";
  return success();
}

LogicalResult BranchAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t id,
                                 BranchKind, llvm::APFloat executions,
                                 llvm::APFloat divergentFraction, bool) {
  if (id < 0)
    return emitError() << "#ks.branch id must be non-negative, got " << id;
  double e = executions.convertToDouble(), d = divergentFraction.convertToDouble();
  if (!std::isfinite(e) || e < 0)
    return emitError() << "#ks.branch executions must be finite and non-negative";
  if (!(d >= 0.0 && d <= 1.0))
    return emitError() << "#ks.branch divergent_fraction must be in [0, 1], got " << d;
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes on operations
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::ks::getProfileId(Operation *op) {
  if (auto access = op->getAttrOfType<AccessAttr>(AccessAttr::kOpAttrName))
    return access.getId();
  if (auto branch = op->getAttrOfType<BranchAttr>(BranchAttr::kOpAttrName))
    return branch.getId();
  return std::nullopt;
}

Operation *mlir::ks::lookupSubject(Operation *kernel, int64_t id) {
  Operation *found = nullptr;
  kernel->walk([&](Operation *op) {
    if (getProfileId(op) == id) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void mlir::ks::dropProfileAttributes(Operation *kernel) {
  kernel->removeAttr(DiagnosisAttr::kKernelAttrName);
  kernel->removeAttr(kPredictedTimeAttrName);
  kernel->removeAttr(kFloorTimeAttrName);
  kernel->walk([](Operation *op) {
    op->removeAttr(AccessAttr::kOpAttrName);
    op->removeAttr(BranchAttr::kOpAttrName);
  });
}

void mlir::ks::detachOpFacts(Operation *kernel) {
  auto diagnosis = kernel->getAttrOfType<DiagnosisAttr>(DiagnosisAttr::kKernelAttrName);
  Attribute predicted = kernel->getAttr(kPredictedTimeAttrName);
  Attribute floor = kernel->getAttr(kFloorTimeAttrName);
  dropKernelFacts(kernel);
  if (predicted)
    kernel->setAttr(kPredictedTimeAttrName, predicted);
  if (floor)
    kernel->setAttr(kFloorTimeAttrName, floor);
  if (!diagnosis)
    return;
  SmallVector<FindingAttr> findings;
  for (FindingAttr f : diagnosis.getFindings())
    findings.push_back(FindingAttr::get(f.getContext(), f.getKind(), f.getSeverity(),
                                        f.getMetric(), f.getValue(), f.getEvidence(),
                                        f.getHeadroom(), f.getLoc(), std::nullopt, f.getNote()));
  kernel->setAttr(DiagnosisAttr::kKernelAttrName,
                  DiagnosisAttr::get(kernel->getContext(), findings));
}

void mlir::ks::dropKernelFacts(Operation *kernel) {
  dropProfileAttributes(kernel);
  kernel->removeAttr(ResourcesAttr::kKernelAttrName);
}

namespace {
/// A discardable attribute of the dialect and what its value must be.
struct DeclaredAttr {
  llvm::StringLiteral name;
  bool (*valid)(Attribute);
  llvm::StringLiteral what;
};
template <typename T> bool isA(Attribute a) { return isa<T>(a); }
bool isUnrollMark(Attribute a) {
  auto factor = dyn_cast<IntegerAttr>(a);
  return isa<UnitAttr>(a) || (factor && factor.getInt() > 0);
}
} // namespace

/// KSDialect.td's discardableAttrs, with the check of each one's value.
static llvm::ArrayRef<DeclaredAttr> declaredOpAttributes() {
  using D = KSDialect;
  static const DeclaredAttr table[] = {
      {D::RaisedAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::NotRaisedAttrHelper::getNameStr(), isA<StringAttr>, "a string (why)"},
      {D::ContractAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::NoLauncherAttrHelper::getNameStr(), isA<StringAttr>, "a string (why)"},
      {D::ScheduleAttrHelper::getNameStr(), isA<StringAttr>, "a string (the schedule's name)"},
      {D::UnrollAttrHelper::getNameStr(), isUnrollMark,
       "a unit attribute or a positive integer (the unroll factor)"},
      {D::Int32LoopOffsetsAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::SourceAttrHelper::getNameStr(), isA<StringAttr>, "a string (the source file)"},
      {D::ExternCAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::HostSymbolCopiesAttrHelper::getNameStr(), isA<ArrayAttr>, "an array"},
      {D::InitializedAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::ScalarAttrHelper::getNameStr(), isA<UnitAttr>, "a unit attribute"},
      {D::SynthesizedAttrHelper::getNameStr(), isA<StringAttr>, "a string (the kernel's name)"},
      {D::NameAttrHelper::getNameStr(), isA<StringAttr>, "a string (the source's name)"},
  };
  return table;
}

/// The attributes of function arguments: a launcher's or kernel's
/// parameters as the importer found them (name, const, __restrict__, the
/// C++ type), buffers a launcher allocates (scratch: its own intermediate),
/// scalars computed by host code, buffers addressed in 32 bits.
static llvm::ArrayRef<DeclaredAttr> declaredArgAttributes() {
  static const DeclaredAttr table[] = {
      {KSDialect::NameAttrHelper::getNameStr(), isA<StringAttr>, "a string (the parameter's name)"},
      {"ks.cxx_type", isA<StringAttr>, "a string (the parameter's C++ type)"},
      {"ks.const", isA<UnitAttr>, "a unit attribute"},
      {"ks.restrict", isA<UnitAttr>, "a unit attribute"},
      {"ks.allocated", isA<UnitAttr>, "a unit attribute"},
      {"ks.scratch", isA<UnitAttr>, "a unit attribute"},
      {"ks.host_value", isA<UnitAttr>, "a unit attribute"},
      {"ks.int32_offsets", isA<UnitAttr>, "a unit attribute"},
  };
  return table;
}

/// The names a `ks.` attribute may have on an op (the ones whose values are
/// ks attributes, verified below, and the declared table's).
static std::string knownOpAttributeNames() {
  std::string names = (ArchAttr::kModuleAttrName + ", " + WorkloadAttr::kAttrName + ", " +
                       ResourcesAttr::kKernelAttrName + ", " + AccessAttr::kOpAttrName + ", " +
                       BranchAttr::kOpAttrName + ", " + DiagnosisAttr::kKernelAttrName + ", " +
                       ProposalAttr::kKernelAttrName + ", " + kPredictedTimeAttrName + ", " +
                       kFloorTimeAttrName + ", " + kExtentsAttrName)
                          .str();
  for (const DeclaredAttr &d : declaredOpAttributes())
    names += ", " + d.name.str();
  return names;
}

/// `known` lists the declared names for the error; it runs only on one.
static LogicalResult verifyDeclared(Operation *op, NamedAttribute attr,
                                    llvm::ArrayRef<DeclaredAttr> table, StringRef where,
                                    function_ref<std::string()> known) {
  StringRef name = attr.getName().getValue();
  for (const DeclaredAttr &d : table)
    if (d.name == name) {
      if (d.valid(attr.getValue()))
        return success();
      return op->emitOpError() << "'" << name << "' must be " << d.what;
    }
  return op->emitOpError() << "'" << name << "' is not an attribute the ks dialect declares "
                           << where << " (" << known() << ")";
}

LogicalResult KSDialect::verifyRegionArgAttribute(Operation *op, unsigned, unsigned argIndex,
                                                  NamedAttribute attr) {
  auto known = [] {
    std::string names;
    for (const DeclaredAttr &d : declaredArgAttributes())
      names += (names.empty() ? "" : ", ") + d.name.str();
    return names;
  };
  return verifyDeclared(op, attr, declaredArgAttributes(),
                        "on argument " + std::to_string(argIndex), known);
}

LogicalResult KSDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError() << "'" << name << "' must be " << what;
  };
  if (name == ArchAttr::kModuleAttrName)
    return expect(isa<ArchAttr>(attr.getValue()), "a #ks.arch");
  if (name == ResourcesAttr::kKernelAttrName)
    return expect(isa<ResourcesAttr>(attr.getValue()), "a #ks.resources");
  if (name == AccessAttr::kOpAttrName)
    return expect(isa<AccessAttr>(attr.getValue()) && op->getNumOperands() > 0,
                  "a #ks.access on a memory access");
  if (name == BranchAttr::kOpAttrName)
    return expect(isa<BranchAttr>(attr.getValue()) && op->getNumRegions() > 0,
                  "a #ks.branch on a branch or loop");
  if (name == ProposalAttr::kKernelAttrName) {
    auto list = dyn_cast<ArrayAttr>(attr.getValue());
    return expect(list && llvm::all_of(list, [](Attribute a) { return isa<ProposalAttr>(a); }),
                  "an array of #ks.proposal");
  }
  if (name == kPredictedTimeAttrName) {
    auto seconds = dyn_cast<FloatAttr>(attr.getValue());
    return expect(seconds && seconds.getValueAsDouble() >= 0,
                  "a non-negative float (the predicted seconds)");
  }
  if (name == kFloorTimeAttrName) {
    auto seconds = dyn_cast<FloatAttr>(attr.getValue());
    return expect(seconds && seconds.getValueAsDouble() > 0,
                  "a positive float (the roofline floor's seconds)");
  }
  if (name == kExtentsAttrName) {
    auto extents = dyn_cast<DictionaryAttr>(attr.getValue());
    return expect(isa<FunctionOpInterface>(op) && extents &&
                      llvm::all_of(extents, [](NamedAttribute e) {
                        return isa<StringAttr>(e.getValue());
                      }),
                  "a dictionary of strings (buffer name -> extent formula) on a launcher");
  }
  if (name == WorkloadAttr::kAttrName)
    return expect(isa<WorkloadAttr>(attr.getValue()), "a #ks.workload");
  if (name != DiagnosisAttr::kKernelAttrName)
    return verifyDeclared(op, attr, declaredOpAttributes(), "on an operation",
                          knownOpAttributeNames);
  auto diagnosis = dyn_cast<DiagnosisAttr>(attr.getValue());
  if (!diagnosis)
    return op->emitOpError() << "'" << name << "' must be a #ks.diagnosis";
  // The findings name ops of this kernel by id: the ids must be unique (a
  // transform that cloned an annotated op without dropping its facts makes
  // them ambiguous). A subject may be gone: any pass may erase an op it
  // finds dead or folds (the canonicalizer knows nothing of the facts), and
  // the finding then stands for the kernel as a whole (lookupSubject gives
  // null), which misleads no one, where a duplicate id would.
  llvm::DenseMap<int64_t, Operation *> ids;
  WalkResult walk = op->walk([&](Operation *inner) {
    std::optional<int64_t> id = getProfileId(inner);
    if (!id)
      return WalkResult::advance();
    auto [it, inserted] = ids.try_emplace(*id, inner);
    if (inserted)
      return WalkResult::advance();
    InFlightDiagnostic d = inner->emitOpError()
                           << "has profile id " << *id
                           << ", which another op of the kernel already has (a transform "
                              "copied an op without dropping its #ks.access/#ks.branch)";
    d.attachNote(it->second->getLoc()) << "the other op";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  return success();
}

LogicalResult ProposalAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef agent,
                                   StringRef schedule, ArrayAttr answers, DictionaryAttr knobs,
                                   DictionaryAttr claims, llvm::APFloat gainAP,
                                   StringRef rationale) {
  if (agent.empty() || schedule.empty())
    return emitError() << "#ks.proposal needs a non-empty 'agent' and 'schedule'";
  for (Attribute a : answers) {
    auto name = dyn_cast<StringAttr>(a);
    if (!name || !symbolizeFindingKind(name.getValue()))
      return emitError() << "#ks.proposal answers must be finding kinds (strings such as "
                            "\"no_reuse\"), got "
                         << a;
  }
  for (NamedAttribute knob : knobs) {
    auto values = dyn_cast<DenseI64ArrayAttr>(knob.getValue());
    if (!values || values.empty())
      return emitError() << "#ks.proposal knob '" << knob.getName().getValue()
                         << "' must be a non-empty array<i64: ...> of allowed values";
  }
  for (NamedAttribute claim : claims) {
    StringRef name = claim.getName().getValue();
    if (name != "shared_bytes" && name != "threads" && name != "registers")
      return emitError() << "#ks.proposal claim '" << name
                         << "' is not one of shared_bytes, threads, registers";
    if (!isa<StringAttr>(claim.getValue()))
      return emitError() << "#ks.proposal claim '" << name << "' must be a formula string";
  }
  double gain = gainAP.convertToDouble();
  if (!(gain >= 0.0 && gain <= 1.0))
    return emitError() << "#ks.proposal gain must be in [0, 1] (a fraction of the kernel's "
                          "time), got "
                       << gain;
  if (rationale.empty())
    return emitError() << "#ks.proposal needs a 'rationale'";
  return success();
}
