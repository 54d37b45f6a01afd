//===- DropProfileFacts.cpp - Remove the profiler's facts from kernels ----===//

#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSDROPPROFILEFACTS
#include "kernelskill/Transforms/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;

namespace {
struct DropProfileFacts : ks::impl::KSDropProfileFactsBase<DropProfileFacts> {
  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        ks::dropProfileAttributes(kernel);
    });
  }
};
} // namespace
