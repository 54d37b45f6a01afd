//===- TransformScripts.cpp - The scripts that apply candidates ----------===//
//
// A candidate is applied as a transform script built from the library's
// ops (docs/Transforms.md), the same script `schedule=FILE` writes.
//
//===----------------------------------------------------------------------===//

#include "KernelSearch.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::ks;

namespace mlir::ks::driver {
/// The transform op that applies `c` to the kernel matched as `%handle`.
std::string opText(const Candidate &c, StringRef handle, StringRef result) {
  return (Twine("%") + result + " = " + c.family->transformOp + " %" + handle + " " +
          c.family->opAttributes(c.knobs) + " : (!transform.any_op) -> !transform.any_op")
      .str();
}

/// A transform script applying each (kernel, op) pair; with `raise`, the
/// lifted input is raised first (a standalone schedule).
std::string scriptText(ArrayRef<std::pair<std::string, const Candidate *>> steps, bool raise) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(%root: !transform.any_op {"
     << (raise ? "transform.consumed" : "transform.readonly") << "}) {\n";
  StringRef payload = "root";
  if (raise) {
    os << "    %raised = transform.apply_registered_pass \"ks-raise\" to %root : "
          "(!transform.any_op) -> !transform.any_op\n";
    payload = "raised";
  }
  for (auto [i, step] : llvm::enumerate(steps)) {
    std::string k = "k" + std::to_string(i), r = "r" + std::to_string(i);
    os << "    %" << k << " = transform.structured.match ops{[\"gpu.func\"]} attributes "
       << "{sym_name = \"" << step.first << "\"} in %" << payload
       << " : (!transform.any_op) -> !transform.any_op\n"
       << "    " << opText(*step.second, k, r) << "\n";
  }
  os << "    transform.yield\n  }\n}\n";
  return s;
}


/// In a copy made to compile one candidate, the other raised kernels (still
/// linalg, which only a schedule lowers) become empty: only the candidate's
/// figures are read from the copy.
void emptyOtherRaisedKernels(ModuleOp copy, StringRef keep) {
  copy.walk([&](gpu::GPUFuncOp f) {
    if (!f.isKernel() || f.getName() == keep || !f->hasAttr("ks.raised"))
      return;
    Region &body = f.getBody();
    while (body.getBlocks().size() > 1)
      body.back().erase();
    Block &entry = body.front();
    while (!entry.empty())
      entry.back().erase();
    OpBuilder b = OpBuilder::atBlockEnd(&entry);
    gpu::ReturnOp::create(b, f.getLoc());
  });
}

/// Parses `script` in `payload`'s context and applies it to `payload`.
LogicalResult applyScript(ModuleOp payload, StringRef script) {
  OwningOpRef<ModuleOp> transforms = parseSourceString<ModuleOp>(script, payload.getContext());
  if (!transforms)
    return failure();
  transform::NamedSequenceOp entry;
  transforms->walk([&](transform::NamedSequenceOp op) {
    if (op.getSymName() == "__transform_main")
      entry = op;
  });
  if (!entry)
    return failure();
  return transform::applyTransformNamedSequence(payload, entry, *transforms,
                                                transform::TransformOptions());
}

/// Whether `script` applies to a copy of `module` (diagnostics silenced);
/// when it does not, `why` (if given) holds the first error.
bool appliesToCopy(ModuleOp module, StringRef script, std::string *why) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  ScopedDiagnosticHandler quiet(module.getContext(), [&](Diagnostic &diag) {
    if (why && why->empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      *why = diag.str();
    return success();
  });
  return succeeded(applyScript(*copy, script));
}

/// A fingerprint of the kernel's code: its generic form without the facts
/// the profilers and agents attach (they describe the code, they are not it).
std::string fingerprintOf(gpu::GPUFuncOp kernel) {
  OwningOpRef<Operation *> copy = kernel->clone();
  dropKernelFacts(*copy);
  (*copy)->removeAttr(ProposalAttr::kKernelAttrName);
  std::string text;
  llvm::raw_string_ostream os(text);
  (*copy)->print(os, OpPrintingFlags().printGenericOpForm().elideLargeElementsAttrs());
  return llvm::formatv("{0:x16}", llvm::xxh3_64bits(text)).str();
}

/// The launches of `kernel` (and of its split-K init kernel) in `module`'s
/// launchers, in order, as a ks-bench manifest (a JSON array of launches).
FailureOr<std::string> manifestOf(ModuleOp module, StringRef kernel) {
  std::vector<std::string> launches;
  bool failedOne = false;
  module.walk([&](gpu::LaunchFuncOp launch) {
    StringRef name = launch.getKernelName();
    if (name != kernel && name != (kernel + "_split_init").str())
      return;
    FailureOr<std::string> spec =
        buildLaunchSpec(launch, launch->getParentOfType<func::FuncOp>(), false);
    if (failed(spec))
      failedOne = true;
    else
      launches.push_back(*spec);
  });
  if (failedOne || launches.empty())
    return failure();
  return "[" + llvm::join(launches, ",\n") + "]\n";
}

} // namespace mlir::ks::driver
