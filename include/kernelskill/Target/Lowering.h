//===- Lowering.h - From GPU-dialect kernels to PTX ----------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_LOWERING_H
#define KERNELSKILL_TARGET_LOWERING_H

#include "kernelskill/Analysis/PtxasReport.h"
#include "kernelskill/Support/Choices.h"
#include "kernelskill/Support/OptLevel.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace mlir::ks {

/// Adds the lowering of the module's GPU kernels to `pm`: the CUDA bare-pointer
/// ABI, upstream's GPU-to-NVVM pipeline for `chip` at `optLevel`, then
/// ks-write-ptx to `ptxPath` (when not empty) and, for format "cubin",
/// ks-assemble-ptx. Leaves a gpu.binary holding PTX (or cubin).
void addKernelLowering(OpPassManager &pm, llvm::StringRef chip, BinaryFormat format,
                       llvm::StringRef ptxPath, int optLevel);

/// Lowers a copy of `module` (in a fresh MLIRContext built from the same
/// dialect registry: the lowering loads dialects that must not be loaded
/// into the caller's context while its pass manager runs) with the
/// pipeline's lowering for `chip` at `optLevel`, after `prepare` (when
/// given) changed the copy, and returns ptxas's report per kernel name; the
/// PTX itself goes to `ptx` when given (one gpu.module per module: the
/// driver's and the profiler's inputs have one). Fails with the reason in
/// `error` when the copy, `prepare`, the lowering or ptxas fails.
FailureOr<std::map<std::string, PtxasFunctionInfo>>
lowerAndAssemble(ModuleOp module, llvm::StringRef ptxas, llvm::StringRef chip, int optLevel,
                 std::string &error, function_ref<LogicalResult(ModuleOp)> prepare = nullptr,
                 std::string *ptx = nullptr);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_LOWERING_H
