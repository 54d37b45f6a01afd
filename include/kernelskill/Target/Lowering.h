//===- Lowering.h - From GPU-dialect kernels to PTX ----------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_LOWERING_H
#define KERNELSKILL_TARGET_LOWERING_H

#include "kernelskill/Support/Choices.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::ks {

/// The LLVM optimization level the lowering uses unless told otherwise; the
/// resource collection uses the same, so both describe one binary. 3, as
/// nvcc -O3: at 2, LLVM's NVPTX unroll threshold (a quarter of the level's)
/// partially unrolls simple loops by 2 where nvcc unrolls by 4, and the
/// memory-bound kernels of the corpus lose a third of their loads in
/// flight (bench/lowering, docs/Performance.md).
constexpr int kDefaultOptLevel = 3;

/// Adds the lowering of the module's GPU kernels to `pm`: the CUDA bare-pointer
/// ABI, upstream's GPU-to-NVVM pipeline for `chip` at `optLevel`, then
/// ks-write-ptx to `ptxPath` (when not empty) and, for format "cubin",
/// ks-assemble-ptx. Leaves a gpu.binary holding PTX (or cubin).
void addKernelLowering(OpPassManager &pm, llvm::StringRef chip, BinaryFormat format,
                       llvm::StringRef ptxPath, int optLevel);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_LOWERING_H
