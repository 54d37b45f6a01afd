//===- LaunchSpec.h - The launch spec of a kernel ---------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_LAUNCHSPEC_H
#define KERNELSKILL_TARGET_LAUNCHSPEC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::ks {

/// The JSON launch spec (docs/Runtime.md) of `launch` in launcher `fn`:
/// parameters, grid/block/shared-memory formulas, workload values. Buffer
/// extents come from the launcher's #ks.workload, else from `extents` (a
/// formula per parameter name, see inferBufferExtents); without either, a
/// missing extent is an error when `requireExtents`, else left out (a
/// manifest).
FailureOr<std::string> buildLaunchSpec(gpu::LaunchFuncOp launch, func::FuncOp fn,
                                       bool requireExtents,
                                       const llvm::StringMap<std::string> *extents = nullptr);

/// The extents (in elements) of the buffers a raised kernel reads through
/// strided views, as formulas of the launcher's argument names (the names
/// `buildLaunchSpec` gives the parameters): a buffer viewed by
/// `memref.reinterpret_cast` with offset o, sizes s_i and strides t_i spans
/// o + sum((s_i - 1) * t_i) + 1 elements, the largest over its views (a block
/// id in them taken at its largest, the launch's grid size - 1). Buffers
/// with any other use (a direct load, a call) are left out: their extent
/// would be a guess.
llvm::StringMap<std::string> inferBufferExtents(gpu::LaunchFuncOp launch, func::FuncOp fn);

/// The launcher `fn`'s own parameters as a JSON array in the launch spec's
/// parameter form (name, type; for a buffer its extent and role), in the
/// launcher's order: what calls the launcher rather than one launch of it
/// (the CPU emulation, tools/ks-emulate). A buffer's extent is the largest
/// over the launches that take it (inferBufferExtents of each, and the
/// `extents` given, which win), its role the union of their accesses; the
/// module variables the launched kernels read or write follow, as `@NAME`.
/// Fails with why when a buffer's extent is unknown or a type has no
/// spelling there.
FailureOr<std::string> buildLauncherParams(func::FuncOp fn,
                                           const llvm::StringMap<std::string> &extents,
                                           std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_LAUNCHSPEC_H
