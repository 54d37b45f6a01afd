//===- StaticCheck.cpp - What a static decision must pass -----------------===//

#include "kernelskill/Driver/StaticCheck.h"
#include "kernelskill/Driver/Lookup.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Driver/Measure.h"
#include "kernelskill/Driver/Restore.h"
#include "kernelskill/Target/CUDAEmitter.h"
#include "kernelskill/Target/LaunchSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::ks;

namespace {
/// Collects the errors reported while it lives, one line each.
struct ErrorCapture {
  explicit ErrorCapture(MLIRContext *ctx)
      : handler(ctx, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            text += (text.empty() ? "" : "; ") + diag.str();
          return success();
        }) {}
  std::string text;
  ScopedDiagnosticHandler handler;
};

bool writeText(const std::string &path, StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile file(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return false;
  file.os() << text;
  file.keep();
  return true;
}

/// `module` exported as CUDA C++ to `path`; the exporter's errors in `why`.
bool exportTo(ModuleOp module, const std::string &path, std::string &why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ErrorCapture errors(module.getContext());
  if (failed(emitCUDA(module, os))) {
    why = errors.text.empty() ? "the CUDA exporter failed" : errors.text;
    return false;
  }
  if (!writeText(path, text)) {
    why = "cannot write " + path;
    return false;
  }
  return true;
}
} // namespace

std::optional<double> mlir::ks::predictRewrittenSeconds(ModuleOp module, StringRef kernel,
                                                        ApplyToCopy apply,
                                                        const llvm::StringMap<int64_t> &workload,
                                                        std::string &why) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  {
    ErrorCapture errors(module.getContext());
    if (failed(apply(*copy))) {
      why = "the schedule does not apply" + (errors.text.empty() ? "" : " (" + errors.text + ")");
      return std::nullopt;
    }
  }
  gpu::GPUFuncOp rewritten = findKernel(*copy, kernel);
  if (!rewritten) {
    why = "the schedule leaves no kernel @" + kernel.str();
    return std::nullopt;
  }
  bool structured = false;
  rewritten.walk([&](Operation *op) {
    if (isa<linalg::LinalgOp>(op))
      structured = true;
  });
  if (structured) {
    why = "the rewritten kernel still holds linalg, which the profiler does not model";
    return std::nullopt;
  }
  // The input's facts (its registers from ptxas, its diagnosis) are not
  // the rewritten kernel's: the profiler estimates them afresh.
  dropKernelFacts(rewritten);
  ProfileOptions options;
  for (const auto &entry : workload)
    options.workload[entry.getKey()] = entry.getValue();
  KernelProfile profile = profileKernel(rewritten, options);
  double seconds = profile.model.total();
  if (!(seconds > 0)) {
    why = "the profiler predicts no time for the rewritten kernel";
    return std::nullopt;
  }
  return seconds;
}

EmulationVerdict mlir::ks::checkOnCPU(ModuleOp module, ModuleOp original, StringRef kernel,
                                      ApplyToCopy apply, const CPUCheckSettings &settings,
                                      std::string &workloadUsed) {
  EmulationVerdict unverified;
  auto fail = [&](std::string why) {
    unverified.detail = std::move(why);
    return unverified;
  };
  auto [launch, launcher] = findLaunch(module, kernel);
  auto [before, beforeLauncher] = findLaunch(original, kernel);
  if (!launch || !launcher || !before || !beforeLauncher)
    return fail("no launcher launches @" + kernel.str() + " (the emulator calls one)");
  // The original launcher's parameters, each buffer's extent the largest
  // its launches need (the raised kernel's views give this kernel's).
  llvm::StringMap<std::string> extents = inferBufferExtents(launch, launcher);
  std::string why;
  FailureOr<std::string> spec = buildLauncherParams(beforeLauncher, extents, why);
  if (failed(spec))
    return fail(why);
  // Every scalar at the workload (the launcher's #ks.workload, then the
  // workload= option, else the profiler's assumption), then made small.
  std::map<std::string, int64_t> values;
  if (auto workload = beforeLauncher->getAttrOfType<WorkloadAttr>("ks.workload"))
    for (NamedAttribute entry : workload.getScalars())
      if (auto integer = dyn_cast<IntegerAttr>(entry.getValue()))
        values[entry.getName().str()] = integer.getInt();
  for (const auto &entry : settings.workload)
    values[entry.getKey().str()] = entry.getValue();
  if (llvm::Expected<llvm::json::Value> doc = llvm::json::parse(*spec)) {
    const llvm::json::Object *root = doc->getAsObject();
    if (const llvm::json::Array *params = root ? root->getArray("params") : nullptr)
      for (const llvm::json::Value &p : *params)
        if (const llvm::json::Object *o = p.getAsObject()) {
          std::string name = o->getString("name").value_or("").str();
          if (o->get("extent") || values.count(name))
            continue;
          values[name] = o->getString("type").value_or("").starts_with("f") ? 1 : kAssumedScalar;
        }
  } else {
    return fail("internal: the launcher's parameters are not JSON: " +
                llvm::toString(doc.takeError()));
  }
  std::map<std::string, int64_t> small = emulationWorkload(values);
  workloadUsed = workloadText(small);
  llvm::Expected<std::string> params = emulationParams(*spec, small);
  if (!params)
    return fail(llvm::toString(params.takeError()));

  // The candidate: the schedule applied to a copy in which every other
  // kernel still raised is given back as lifted (a raised kernel runs only
  // once scheduled; the kernels decided before this one keep what they got).
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  {
    ErrorCapture errors(module.getContext());
    if (failed(apply(*copy)))
      return fail("the schedule does not apply to a copy" +
                  (errors.text.empty() ? "" : ": " + errors.text));
  }
  SmallVector<std::string> raised;
  copy->walk([&](gpu::GPUFuncOp f) {
    if (f.isKernel() && f.getName() != kernel && f->hasAttr(kRaisedAttrName))
      raised.push_back(f.getName().str());
  });
  for (const std::string &other : raised) {
    std::string why;
    if (failed(restoreOriginal(*copy, original, other, why)))
      return fail("kernel @" + other + " of the same launcher cannot run as lifted: " + why);
  }
  {
    // As the pipeline does after the driver, before ks optimize exports.
    PassManager pm(module.getContext(), ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Implicit);
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    ErrorCapture errors(module.getContext());
    if (failed(pm.run(*copy)))
      return fail("canonicalizing the candidate failed: " + errors.text);
  }
  std::string base = settings.workDir + "/" + kernel.str();
  if (!exportTo(original, base + ".input.cu", why))
    return fail("the input does not export to CUDA: " + why);
  if (!exportTo(*copy, base + ".candidate.cu", why))
    return fail("the candidate does not export to CUDA: " + why);

  EmulationJob job;
  job.emulator = settings.emulator;
  job.referencePath = base + ".input.cu";
  job.candidatePath = base + ".candidate.cu";
  job.launcher = beforeLauncher.getSymName().str();
  job.params = *params;
  job.workload = workloadUsed;
  job.tolerance = emulationTolerance(*spec, settings.tf32);
  job.timeoutSeconds = settings.timeoutSeconds;
  job.logPath = base + ".emulate.log";
  return runEmulation(job);
}
