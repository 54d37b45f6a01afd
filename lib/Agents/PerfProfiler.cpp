//===- PerfProfiler.cpp - The performance profiler agent ------------------===//
//
// The pass around the performance profiler: for each kernel it takes the
// shared KernelProfileAnalysis (lib/Analysis), asks Diagnosis.h what is
// wrong, compares predictions with counters when measurements are given, and
// writes the result into the IR — #ks.access and #ks.branch on the ops the
// facts are about, #ks.diagnosis on the kernel, findings naming their
// subjects by id — and, when asked, a report beside the IR (never into it).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Diagnosis.h"
#include "kernelskill/Agents/DiagnosisReport.h"
#include "kernelskill/Agents/Measurements.h"
#include "kernelskill/Agents/Passes.h"
#include "kernelskill/Agents/ReportStream.h"
#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSPERFPROFILER
#include "kernelskill/Agents/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {

AccessKind accessKind(const AccessReport &a) {
  return a.isLoad && a.isStore ? AccessKind::atomic
         : a.isLoad            ? AccessKind::load
                               : AccessKind::store;
}

AccessPatternKind patternKind(AccessPattern pattern) {
  switch (pattern) {
  case AccessPattern::Coalesced:
    return AccessPatternKind::coalesced;
  case AccessPattern::Strided:
    return AccessPatternKind::strided;
  case AccessPattern::Broadcast:
    return AccessPatternKind::broadcast;
  case AccessPattern::Gather:
    return AccessPatternKind::gather;
  }
  llvm_unreachable("unknown access pattern");
}

BranchKind branchKind(ControlKind kind) {
  switch (kind) {
  case ControlKind::If:
    return BranchKind::branch;
  case ControlKind::Switch:
    return BranchKind::switch_;
  case ControlKind::Loop:
    return BranchKind::loop;
  }
  llvm_unreachable("unknown control kind");
}

/// Writes the profile's per-op facts onto the ops and the ranked findings
/// onto the kernel. Ids number the accesses, then the branches, in the
/// profile's (walk) order; facts from an earlier run are dropped first.
void attach(gpu::GPUFuncOp kernel, const KernelProfile &p, const std::vector<Finding> &findings) {
  MLIRContext *ctx = kernel.getContext();
  dropProfileAttributes(kernel);
  llvm::DenseMap<Operation *, int64_t> ids;
  auto real = [](double v) { return llvm::APFloat(v); };
  for (const AccessReport &a : p.accesses) {
    int64_t id = int64_t(ids.size());
    ids[a.op] = id;
    a.op->setAttr(AccessAttr::kOpAttrName,
                  AccessAttr::get(ctx, id, accessKind(a),
                                  a.space == MemorySpace::Shared ? AccessSpace::shared
                                                                 : AccessSpace::global,
                                  patternKind(a.pattern), a.constantStride(),
                                  real(a.sectorsPerRequest), real(a.idealSectorsPerRequest),
                                  real(a.wavefrontsPerRequest), real(a.stats.warpsPerElement),
                                  a.invariantLoop != nullptr));
  }
  for (const BranchReport &b : p.branches) {
    int64_t id = int64_t(ids.size());
    ids[b.op] = id;
    b.op->setAttr(BranchAttr::kOpAttrName,
                  BranchAttr::get(ctx, id, branchKind(b.kind), real(b.stats.executions),
                                  real(std::clamp(b.divergentFraction, 0.0, 1.0)),
                                  b.laneDependent));
  }
  SmallVector<FindingAttr> attrs;
  for (const Finding &f : findings) {
    std::optional<int64_t> subject;
    if (f.subject)
      if (auto it = ids.find(f.subject); it != ids.end())
        subject = it->second;
    attrs.push_back(FindingAttr::get(ctx, f.kind, severityOf(f.headroom), f.metric,
                                     real(f.value), f.evidence, real(f.headroom), f.loc, subject,
                                     f.note));
  }
  kernel->setAttr(DiagnosisAttr::kKernelAttrName, DiagnosisAttr::get(ctx, attrs));
  kernel->setAttr(kPredictedTimeAttrName,
                  FloatAttr::get(Float64Type::get(ctx), p.model.total()));
  // The floor the diagnosis's headroom is measured from (no kernel beats
  // its floor plus the cost of being launched): the driver's target.
  if (p.roofline.floorSeconds > 0)
    kernel->setAttr(kFloorTimeAttrName, FloatAttr::get(Float64Type::get(ctx),
                                                       p.roofline.floorSeconds + p.model.launch));
}

struct PerfProfilerPass : public ks::impl::KSPerfProfilerBase<PerfProfilerPass> {
  using KSPerfProfilerBase::KSPerfProfilerBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    FailureOr<llvm::StringMap<int64_t>> sizes = parseWorkloadOption(workload, error);
    if (failed(sizes)) {
      emitError(module.getLoc()) << "ks-perf-profiler: " << error;
      return signalPassFailure();
    }
    llvm::StringMap<Measurement> measured;
    if (!measurements.empty()) {
      FailureOr<llvm::StringMap<Measurement>> loaded = loadMeasurements(measurements, error);
      if (failed(loaded)) {
        emitError(module.getLoc()) << "ks-perf-profiler: " << error;
        return signalPassFailure();
      }
      measured = std::move(*loaded);
    }
    std::unique_ptr<llvm::raw_ostream> os;
    if (format != ReportFormat::None) {
      os = openReport(report, error);
      if (!os) {
        emitError(module.getLoc()) << "ks-perf-profiler: " << error;
        return signalPassFailure();
      }
    }

    ProfileOptions options;
    options.workload = *sizes;
    llvm::json::Array kernelsJSON;
    SmallVector<gpu::GPUFuncOp> kernels;
    module.walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        kernels.push_back(kernel);
    });
    for (gpu::GPUFuncOp kernel : kernels) {
      const KernelProfile &profile =
          getAnalysisManager().nest(kernel).getAnalysis<KernelProfileAnalysis>().get(options);
      const Measurement *m = nullptr;
      if (auto it = measured.find(kernel.getName()); it != measured.end())
        m = &it->second;
      std::vector<Finding> findings = diagnose(profile, m);
      std::vector<Comparison> comparisons;
      if (m)
        comparisons = compareWithCounters(profile, *m);
      attach(kernel, profile, findings);
      if (format == ReportFormat::Text)
        printDiagnosisText(*os, profile, findings, comparisons, m);
      else if (format == ReportFormat::JSON)
        kernelsJSON.push_back(diagnosisToJSON(profile, findings, comparisons, m));
    }
    if (format == ReportFormat::JSON) {
      llvm::json::Object doc{{"kernels", std::move(kernelsJSON)}};
      *os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
    }
    // Attributes only: the profiles stay valid for the agents that follow.
    markAnalysesPreserved<KernelProfileAnalysis>();
  }
};
} // namespace
