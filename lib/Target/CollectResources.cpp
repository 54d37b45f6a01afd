//===- CollectResources.cpp - ptxas's report onto each kernel -------------===//
//
// The agents reason with registers, spills and shared memory as ptxas
// allocates them, not as the IR suggests. This pass lowers a copy of the
// module with the pipeline's own lowering (same chip, same LLVM optimization
// level), reads `ptxas -v` and writes the figures onto each kernel as
// #ks.resources, so analyses and agents read an attribute (which a test can
// also write by hand) instead of lowering the module themselves.
//
// The copy lives in a fresh MLIRContext built from the same dialect
// registry: the lowering loads dialects (LLVM, NVVM, ...) that must not be
// loaded into the caller's context while its pass manager runs.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/PtxasReport.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Target/PTXAS.h"
#include "kernelskill/Target/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <map>

namespace mlir::ks {
#define GEN_PASS_DEF_KSCOLLECTRESOURCES
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

FailureOr<std::map<std::string, PtxasFunctionInfo>>
mlir::ks::lowerAndAssemble(ModuleOp module, StringRef ptxas, StringRef chip, int optLevel,
                           std::string &error, function_ref<LogicalResult(ModuleOp)> prepare,
                           std::string *ptx) {
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
    error = "the module could not be copied: " + diagnostics;
    return failure();
  }
  if (prepare && failed(prepare(*copy))) {
    error = diagnostics.empty() ? "the change to the copy failed" : diagnostics;
    return failure();
  }
  PassManager pm(&context, ModuleOp::getOperationName());
  addKernelLowering(pm, chip, BinaryFormat::PTX, "", optLevel);
  if (failed(pm.run(*copy))) {
    error = "lowering to PTX failed: " + diagnostics;
    return failure();
  }
  std::map<std::string, PtxasFunctionInfo> functions;
  WalkResult walk = copy->walk([&](gpu::BinaryOp binary) {
    for (Attribute a : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(a);
      if (!object)
        continue;
      if (ptx && !ptx->empty()) {
        error = "the module holds more than one gpu.module; one PTX file cannot hold them";
        return WalkResult::interrupt();
      }
      if (ptx)
        *ptx = object.getObject().getValue().str();
      llvm::Expected<PtxasResult> result = runPtxas(ptxas, object.getObject().getValue(), chip);
      if (!result) {
        error = "ptxas failed: " + llvm::toString(result.takeError());
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

namespace {
struct CollectResources : ks::impl::KSCollectResourcesBase<CollectResources> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string target = chip;
    if (target.empty()) {
      auto arch = module->getAttrOfType<ArchAttr>(ArchAttr::kModuleAttrName);
      target = arch ? arch.getChip().str() : std::string(getDefaultGPU().chip);
    }
    if (!isKnownChip(target)) {
      emitError(module.getLoc()) << "ks-collect-resources: unknown chip '" << target
                                 << "'; valid chips: " << joinKnownChips();
      return signalPassFailure();
    }
    if (optLevel < 0 || optLevel > 3) {
      emitError(module.getLoc()) << "ks-collect-resources: opt-level must be 0 to 3, got "
                                 << int(optLevel);
      return signalPassFailure();
    }
    bool anyKernel = false;
    module.walk([&](gpu::GPUFuncOp f) { anyKernel |= f.isKernel(); });
    if (!anyKernel)
      return markAllAnalysesPreserved();
    std::optional<std::string> found = findPtxas(ptxas);
    if (!found) {
      emitRemark(module.getLoc())
          << "ks-collect-resources: no ptxas found"
          << (ptxas.empty() ? "" : " at '" + ptxas + "'")
          << "; kernels keep no #ks.resources and the profiler estimates from the IR";
      return markAllAnalysesPreserved();
    }
    std::string error;
    FailureOr<std::map<std::string, PtxasFunctionInfo>> report =
        lowerAndAssemble(module, *found, target, optLevel, error);
    if (failed(report)) {
      emitError(module.getLoc()) << "ks-collect-resources: " << error;
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      auto it = report->find(kernel.getName().str());
      if (it == report->end()) {
        kernel->removeAttr(ResourcesAttr::kKernelAttrName);
        emitRemark(kernel.getLoc()) << "ks-collect-resources: ptxas reported nothing for '"
                                    << kernel.getName() << "'";
        return;
      }
      const PtxasFunctionInfo &info = it->second;
      kernel->setAttr(ResourcesAttr::kKernelAttrName,
                      ResourcesAttr::get(ctx, info.registers, info.stackFrameBytes,
                                         info.spillStoreBytes, info.spillLoadBytes,
                                         info.sharedBytes, target, optLevel));
    });
  }
};

} // namespace
