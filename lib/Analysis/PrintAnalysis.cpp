//===- PrintAnalysis.cpp - Print one static analysis as remarks -----------===//
//
// The lit face of lib/Analysis: one remark per fact, at the location the fact
// is about, so `file:line:col: remark: ...` lines can be checked one analysis
// at a time.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/KernelProfile.h"
#include "kernelskill/Analysis/Passes.h"


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
    static const char *const kinds[] = {"index",     "coalescing", "bank-conflicts",
                                        "divergence", "reuse",      "resources",
                                        "occupancy",  "roofline"};
    if (!llvm::is_contained(kinds, StringRef(analysis))) {
      emitError(getOperation().getLoc(), "ks-print-analysis: unknown analysis='")
          << analysis
          << "'; valid: index, coalescing, bank-conflicts, divergence, reuse, resources, "
             "occupancy, roofline";
      return signalPassFailure();
    }
    std::string error;
    FailureOr<llvm::StringMap<int64_t>> sizes = parseWorkloadOption(workload, error);
    if (failed(sizes)) {
      emitError(getOperation().getLoc(), "ks-print-analysis: ") << error;
      return signalPassFailure();
    }
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      ProfileOptions options;
      options.workload = *sizes;
      print(profileKernel(kernel, options), kernel);
    });
  }

  void print(const KernelProfile &p, gpu::GPUFuncOp kernel) {
    StringRef what = analysis;
    for (const AccessReport &a : p.accesses) {
      Operation *op = a.op;
      if (what == "index")
        emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": index = " << a.index;
      else if (what == "coalescing" && a.space == MemorySpace::Global)
        emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": " << toString(a.pattern)
                         << ", stride " << a.stride << " along threadIdx.x, "
                         << formatFixed(a.sectorsPerRequest) << " sectors/request (ideal "
                         << formatFixed(a.idealSectorsPerRequest) << ")"
                         << (a.stats.unknownRequests > 0 ? ", data-dependent addresses" : "");
      else if (what == "bank-conflicts" && a.space == MemorySpace::Shared) {
        auto r = emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": ";
        if (a.wavefrontsPerRequest > 1.0001)
          r << formatFixed(a.wavefrontsPerRequest, 1) << "-way bank conflict on average, "
            << formatFixed(a.stats.worstWavefronts, 0) << "-way at worst";
        else
          r << "no bank conflict";
      } else if (what == "reuse" && a.isLoad && !a.isStore) {
        auto r = emitRemark(op->getLoc()) << a.kindName() << " " << a.text << ": "
                                  << formatFixed(a.stats.threadsPerElement, 1) << " threads in "
                                  << formatFixed(a.stats.warpsPerElement, 1)
                                  << " warps of a block read each element";
        if (a.invariantInLoop)
          r << "; the same address in every iteration of the loop at "
            << shortLocation(*a.invariantInLoop);
      }
    }
    if (what == "divergence")
      for (const BranchReport &b : p.branches) {
        std::string cond = b.condition.empty() ? "a computed condition" : "`" + b.condition + "`";
        auto r = emitRemark(*b.loc);
        if (b.isLoop)
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
    if (what == "resources") {
      const ResourceReport &r = p.resources;
      emitRemark(kernel.getLoc()) << "resources (" << (r.fromPtxas ? "ptxas" : "estimated")
                          << "): " << r.info.registers << " registers, " << r.info.sharedBytes
                          << " B static shared, " << r.dynamicSharedBytes
                          << " B dynamic shared, " << r.info.stackFrameBytes << " B stack";
    }
    if (what == "occupancy") {
      const Occupancy &o = p.occupancy;
      emitRemark(kernel.getLoc()) << "occupancy " << formatFixed(100 * o.occupancy, 1) << "%: "
                          << o.activeBlocksPerSM << " blocks, " << o.activeWarpsPerSM
                          << " warps per SM, limited by " << toString(o.limiter)
                          << " (block of " << p.context.launch.threadsPerBlock() << " threads, "
                          << p.resources.info.registers << " registers, "
                          << p.resources.info.sharedBytes + p.resources.dynamicSharedBytes
                          << " B shared)";
    }
    if (what == "roofline") {
      const Roofline &r = p.roofline;
      emitRemark(kernel.getLoc()) << "roofline: " << formatFixed(p.simulation.totalFlops() / 1e9, 3)
                          << " GFLOP, " << formatFixed(p.dramBytes / 1e6, 3) << " MB DRAM, intensity "
                          << formatFixed(r.intensity, 2) << " FLOP/B (ridge " << formatFixed(r.ridgePoint, 2)
                          << "): " << toString(r.bound) << "-bound, floor "
                          << formatFixed(r.floorSeconds * 1e3, 4) << " ms";
    }
  }
};
} // namespace
