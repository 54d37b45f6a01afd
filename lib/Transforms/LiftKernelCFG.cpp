//===- LiftKernelCFG.cpp - Structure the control flow of kernels ----------===//

#include "kernelskill/Transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSLIFTKERNELCFG
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
/// Upstream's cf-to-scf callbacks, ending unreachable exits of a kernel with
/// gpu.return instead of func.return.
struct KernelControlFlowToSCF : public ControlFlowToSCFTransformation {
  FailureOr<Operation *> createUnreachableTerminator(Location loc, OpBuilder &builder,
                                                     Region &region) override {
    return gpu::ReturnOp::create(builder, loc).getOperation();
  }
};

struct LiftKernelCFGPass : public ks::impl::KSLiftKernelCFGBase<LiftKernelCFGPass> {
  void runOnOperation() override {
    KernelControlFlowToSCF transformation;
    WalkResult result = getOperation().walk([&](gpu::GPUFuncOp func) {
      if (func.getBody().hasOneBlock())
        return WalkResult::advance();
      DominanceInfo dominance(func);
      if (failed(transformCFGToSCF(func.getBody(), transformation, dominance))) {
        func.emitError("ks-lift-kernel-cfg: cannot structure this kernel's control flow");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    scf::populateUpliftWhileToForPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
