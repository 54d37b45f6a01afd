//===- UnrollMarkedLoops.cpp - Unroll the loops a schedule marked ---------===//

#include "kernelskill/Transforms/Contraction.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSUNROLLMARKEDLOOPS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

namespace {
struct UnrollMarkedLoops : ks::impl::KSUnrollMarkedLoopsBase<UnrollMarkedLoops> {
  void runOnOperation() override {
    // Post-order: inner loops first, so an outer loop unrolls copies of
    // straight-line code.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->hasAttr(ks::kUnrollAttrName))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Attribute mark = loop->getAttr(ks::kUnrollAttrName);
      LogicalResult done = success();
      if (auto factor = dyn_cast<IntegerAttr>(mark))
        done = loopUnrollByFactor(loop, factor.getInt());
      else
        done = loopUnrollFull(loop);
      if (failed(done)) {
        loop.emitError("ks-unroll-marked-loops: cannot unroll this loop (its trip count is not "
                       "constant)");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
