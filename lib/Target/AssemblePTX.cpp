//===- AssemblePTX.cpp - Turn gpu.binary PTX into cubin with ptxas --------===//

#include "kernelskill/Target/PTXAS.h"
#include "kernelskill/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::ks {
#define GEN_PASS_DEF_KSASSEMBLEPTX
#include "kernelskill/Target/Passes.h.inc"
} // namespace mlir::ks

using namespace mlir;
using namespace mlir::ks;

namespace {
struct AssemblePTXPass : public ks::impl::KSAssemblePTXBase<AssemblePTXPass> {
  using KSAssemblePTXBase::KSAssemblePTXBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<std::string> tool = findPtxas(ptxas);
    if (!tool) {
      module.emitError() << "ks-assemble-ptx: ptxas not found"
                         << (ptxas.empty() ? std::string(" (searched PATH, $CUDA_HOME/bin, "
                                                         "$CUDA_PATH/bin, $CUDA_ROOT/bin, "
                                                         "/usr/local/cuda/bin)")
                                           : " at '" + ptxas + "'")
                         << "; install the CUDA toolkit or use format=ptx";
      return signalPassFailure();
    }
    Builder b(&getContext());
    WalkResult result = module.walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        auto target = object ? dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()) : nullptr;
        if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
          objects.push_back(attr);
          continue;
        }
        llvm::Expected<PtxasResult> cubin =
            runPtxas(*tool, object.getObject().getValue(), target.getChip());
        if (!cubin) {
          binary.emitError() << "ks-assemble-ptx: " << llvm::toString(cubin.takeError());
          return WalkResult::interrupt();
        }
        NamedAttrList props(object.getProperties());
        props.set("ptxas_info", b.getStringAttr(cubin->report));
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), target, gpu::CompilationTarget::Binary,
            b.getStringAttr(cubin->cubin), props.getDictionary(&getContext()),
            object.getKernels()));
      }
      binary.setObjectsAttr(b.getArrayAttr(objects));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
