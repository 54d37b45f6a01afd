//===- PrintAnalysis.cpp - Print one static analysis as remarks -----------===//
//
// The lit face of lib/Analysis: one remark per fact, at the location the fact
// is about, so `file:line:col: remark: ...` lines can be checked one analysis
// at a time.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Analysis/Passes.h"
#include "kernelskill/Analysis/ProfilePrinter.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSPRINTANALYSIS
#include "kernelskill/Analysis/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {

struct PrintAnalysis : ks::impl::KSPrintAnalysisBase<PrintAnalysis> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    FailureOr<llvm::StringMap<int64_t>> sizes = parseWorkloadOption(workload, error);
    if (failed(sizes)) {
      emitError(getOperation().getLoc(), "ks-print-analysis: ") << error;
      return signalPassFailure();
    }
    ProfileOptions options;
    options.workload = *sizes;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        print(getAnalysisManager().nest(kernel).getAnalysis<KernelProfileAnalysis>().get(options),
              kernel);
    });
    markAllAnalysesPreserved();
  }

  void print(const KernelProfile &p, gpu::GPUFuncOp kernel) {
    AnalysisKind what = analysis;
    for (const AccessReport &a : p.accesses) {
      Operation *op = a.op;
      if (what == AnalysisKind::Index)
        emitRemark(op->getLoc()) << a.kindName() << " " << a.text
                                 << ": index = " << printIndex(p, a.index);
      else if (what == AnalysisKind::Coalescing && a.space == MemorySpace::Global)
        emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": " << toString(a.pattern)
                         << ", stride " << strideText(p, a) << " along threadIdx.x, "
                         << formatFixed(a.sectorsPerRequest) << " sectors/request (ideal "
                         << formatFixed(a.idealSectorsPerRequest) << ")"
                         << (a.stats.unknownRequests > 0 ? ", data-dependent addresses" : "");
      else if (what == AnalysisKind::BankConflicts && a.space == MemorySpace::Shared) {
        auto r = emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": ";
        if (a.wavefrontsPerRequest > 1.0001)
          r << formatFixed(a.wavefrontsPerRequest, 1) << "-way bank conflict on average, "
            << formatFixed(a.stats.worstWavefronts, 0) << "-way at worst";
        else
          r << "no bank conflict";
      } else if (what == AnalysisKind::Reuse && a.isLoad && !a.isStore) {
        auto r = emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": "
                                  << formatFixed(a.stats.threadsPerElement, 1) << " threads in "
                                  << formatFixed(a.stats.warpsPerElement, 1)
                                  << " warps of a block read each element";
        if (a.invariantLoop)
          r << "; the same address in every iteration of the loop at "
            << shortLocation(getLoopLocation(a.invariantLoop));
      }
    }
    if (what == AnalysisKind::Divergence)
      for (const BranchReport &b : p.branches) {
        std::string condition = conditionText(p, b);
        std::string cond = condition.empty() ? "a computed condition" : "`" + condition + "`";
        auto r = emitRemark(*b.loc);
        if (b.kind == ControlKind::Switch)
          r << "switch on " << cond << ": divergent in "
            << formatFixed(100 * b.divergentFraction, 1) << "% of warp executions";
        else if (b.isLoop())
          r << "loop on " << cond << ": "
            << formatFixed(b.stats.executions > 0 ? b.stats.iterations / b.stats.executions : 0, 1)
            << " iterations per warp, lanes leave at different iterations in "
            << formatFixed(100 * b.divergentFraction, 1) << "% of executions";
        else
          r << "branch on " << cond << ": divergent in " << formatFixed(100 * b.divergentFraction, 1)
            << "% of warp executions";
        r << (!b.laneDependent             ? " (uniform)"
              : b.divergentFraction > 0 ? " (lane-dependent)"
                                        : " (depends on the thread, uniform within each warp)");
        if (b.stats.unknown > 0)
          r << ", data-dependent";
      }
    if (what == AnalysisKind::Resources) {
      const ResourceReport &r = p.resources;
      emitRemark(kernel.getLoc()) << "resources (" << (r.fromPtxas ? "ptxas" : "estimated")
                          << "): " << r.info.registers << " registers, " << r.info.sharedBytes
                          << " B static shared, " << r.dynamicSharedBytes
                          << " B dynamic shared, " << r.info.stackFrameBytes << " B stack";
    }
    if (what == AnalysisKind::Occupancy) {
      const Occupancy &o = p.occupancy;
      emitRemark(kernel.getLoc()) << "occupancy " << formatFixed(100 * o.occupancy, 1) << "%: "
                          << o.activeBlocksPerSM << " blocks, " << o.activeWarpsPerSM
                          << " warps per SM, limited by " << toString(o.limiter)
                          << " (block of " << p.context.launch.threadsPerBlock() << " threads, "
                          << p.resources.info.registers << " registers, "
                          << p.resources.info.sharedBytes + p.resources.dynamicSharedBytes
                          << " B shared)";
    }
    if (what == AnalysisKind::Roofline) {
      const Roofline &r = p.roofline;
      emitRemark(kernel.getLoc()) << "roofline: " << formatFixed(p.simulation.totalFlops() / 1e9, 3)
                          << " GFLOP, " << formatFixed(p.dramBytes / 1e6, 3) << " MB DRAM, intensity "
                          << formatFixed(r.intensity, 2) << " FLOP/B (ridge " << formatFixed(r.ridgePoint, 2)
                          << "): " << toString(r.bound) << "-bound, floor "
                          << formatFixed(r.floorSeconds * 1e3, 4) << " ms";
    }
    if (what == AnalysisKind::Latency)
      emitRemark(kernel.getLoc()) << "memory latency: " << describeMemoryLatency(p) << ": "
                                  << formatFixed(p.model.latency * 1e3, 4) << " ms";
  }
};
} // namespace
