//===- Lowering.h - From GPU-dialect kernels to PTX ----------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_LOWERING_H
#define KERNELSKILL_TARGET_LOWERING_H

#include "kernelskill/Support/Choices.h"
#include "kernelskill/Support/OptLevel.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::ks {

/// Adds the lowering of the module's GPU kernels to `pm`: the CUDA bare-pointer
/// ABI, upstream's GPU-to-NVVM pipeline for `chip` at `optLevel`, then
/// ks-write-ptx to `ptxPath` (when not empty) and, for format "cubin",
/// ks-assemble-ptx. Leaves a gpu.binary holding PTX (or cubin).
void addKernelLowering(OpPassManager &pm, llvm::StringRef chip, BinaryFormat format,
                       llvm::StringRef ptxPath, int optLevel);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_LOWERING_H
