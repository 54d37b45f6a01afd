//===- Lowering.cpp - From GPU-dialect kernels to PTX ---------------------===//

#include "kernelskill/Target/Lowering.h"
#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Target/Passes.h"
#include "kernelskill/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

/// LLVM's runtime unroller runs a loop's leftover iterations after the
/// unrolled loop (an epilog) by default; with them before it (a prolog),
/// ptxas schedules the unrolled loop's loads earlier. Measured on the H200
/// against nvcc -O3 (docs/Performance.md, "The lowering against nvcc"):
/// the one-thread-per-column GEMV 0.84 -> 0.99 of nvcc's speed, the direct
/// convolution 0.80 -> 0.91, with nothing else in the corpus under 0.9.
/// The switch is LLVM's global `-unroll-runtime-epilog` (the unroller has no
/// per-module setting); a value given on the command line is kept.
static void preferUnrollPrologs() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("unroll-runtime-epilog");
  if (it == options.end() || it->second->getNumOccurrences() > 0)
    return;
  (void)it->second->addOccurrence(/*pos=*/0, it->second->ArgStr, "false");
}

void mlir::ks::addKernelLowering(OpPassManager &pm, StringRef chip, BinaryFormat format,
                                 StringRef ptxPath, int optLevel) {
  // The profiler's facts name ops the lowering is about to replace.
  pm.addPass(createKSDropProfileFacts());
  // 32-bit offsets for the int-indexed buffers, on the kernels' memref
  // arguments (before they become bare pointers) and before the marked
  // loops are unrolled: offsets that vary with a loop stay 64-bit (the
  // pass's default), those of rolled loops included, where LLVM folds each
  // unrolled step into the load's immediate displacement; a wrapping i32
  // offset, sign-extended per load, defeats that. Measured on the H200
  // (bench/results/2026-12-04-h200-loop-offsets): narrowed after the
  // unrolling, softmax row_warp 65536x1024 fell from 0.96 to 0.65 of the
  // copy; narrowed before it, 0.95, with the 3-D stencil window at 0.74-0.75.
  // One store after an if that stores the same element in both branches
  // (a border copy): its address computed once, the branch predicable.
  pm.addPass(createKSSinkBranchStores());
  pm.addPass(createKSNarrowOffsets());
  // Schedules keep register-tile loops rolled (readable IR, exported CUDA):
  // unroll them so their private arrays become registers. A raised kernel
  // not yet scheduled runs its iteration space in one thread, in order.
  pm.addPass(createKSUnrollMarkedLoops());
  pm.addPass(createForallToForLoopPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createKSBarePointerABI());
  preferUnrollPrologs();
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = chip.str();
  nvvm.cubinFeatures = getPTXFeatureForChip(chip).str();
  nvvm.optLevel = optLevel;
  // Always PTX first: ks-write-ptx and ks-assemble-ptx take it from there.
  nvvm.cubinFormat = "isa";
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  pm.addPass(createKSPatchPTX());
  if (!ptxPath.empty())
    pm.addPass(createKSWritePTX(KSWritePTXOptions{ptxPath.str()}));
  if (format == BinaryFormat::Cubin)
    pm.addPass(createKSAssemblePTX());
}
