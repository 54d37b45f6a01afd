//===- Lowering.cpp - From GPU-dialect kernels to PTX ---------------------===//

#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::ks::addKernelLowering(OpPassManager &pm, StringRef chip, BinaryFormat format,
                                 StringRef ptxPath, int optLevel) {
  // The profiler's facts name ops the lowering is about to replace.
  pm.addPass(createKSDropProfileFacts());
  // Schedules keep register-tile loops rolled (readable IR, exported CUDA):
  // unroll them so their private arrays become registers. A raised kernel
  // not yet scheduled runs its iteration space in one thread, in order.
  pm.addPass(createKSUnrollMarkedLoops());
  pm.addPass(createForallToForLoopPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createKSBarePointerABI());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = chip.str();
  nvvm.cubinFeatures = getPTXFeatureForChip(chip).str();
  nvvm.optLevel = optLevel;
  // Always PTX first: ks-write-ptx and ks-assemble-ptx take it from there.
  nvvm.cubinFormat = "isa";
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  if (!ptxPath.empty())
    pm.addPass(createKSWritePTX(KSWritePTXOptions{ptxPath.str()}));
  if (format == BinaryFormat::Cubin)
    pm.addPass(createKSAssemblePTX());
}
