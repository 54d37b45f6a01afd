//===- PtxasResources.cpp - ptxas's report for a module's kernels ---------===//
//
// The performance profiler's resource figures (registers, spills, stack,
// static shared memory) are ptxas's, not guesses: lower a copy of the module
// exactly as --kernelskill-lower does and read `ptxas -v`. The copy lives in a
// fresh MLIRContext (built from the same dialect registry) so the lowering's
// dialects are not loaded into the caller's context while its pass manager
// runs.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/PtxasResources.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Target/PTXAS.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::ks;

FailureOr<std::map<std::string, PtxasFunctionInfo>>
mlir::ks::getPtxasResources(ModuleOp module, StringRef chip, std::string &whyNot) {
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas) {
    whyNot = "ptxas not found";
    return failure();
  }
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo(true));
  }
  DialectRegistry registry;
  module->getContext()->getDialectRegistry().appendTo(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(module->getContext()->allowsUnregisteredDialects());
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += (diagnostics.empty() ? "" : "; ") + d.str();
    return success();
  });
  OwningOpRef<ModuleOp> copy = parseSourceString<ModuleOp>(text, &context);
  if (!copy) {
    whyNot = "the module could not be copied: " + diagnostics;
    return failure();
  }
  PassManager pm(&context, ModuleOp::getOperationName());
  addKernelLowering(pm, chip, "ptx", "", /*optLevel=*/3);
  if (failed(pm.run(*copy))) {
    whyNot = "lowering to PTX failed: " + diagnostics;
    return failure();
  }
  std::map<std::string, PtxasFunctionInfo> functions;
  WalkResult walk = copy->walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      if (!object)
        continue;
      llvm::Expected<PtxasResult> result = runPtxas(*ptxas, object.getObject().getValue(), chip);
      if (!result) {
        whyNot = "ptxas failed: " + llvm::toString(result.takeError());
        return WalkResult::interrupt();
      }
      for (auto &[name, info] : parsePtxasReport(result->report))
        functions[name] = info;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return functions;
}
