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

/// The extents (in elements) of the buffers a kernel touches, as formulas of
/// the launcher's argument names (the names `buildLaunchSpec` gives the
/// parameters): a buffer viewed by `memref.reinterpret_cast` with offset o,
/// sizes s_i and strides t_i spans o + sum((s_i - 1) * t_i) + 1 elements (a
/// block id in them taken at its largest, the launch's grid size - 1); one
/// loaded or stored in place spans its greatest index + 1, bounded by the
/// guards and loops around the access; the largest over all of them. A
/// buffer with any other use (a call) is left out: its extent would be a
/// guess. A buffer none of them bounds takes the formula the launcher's
/// ks.extents records of the lifted kernel (kExtentsAttrName).
llvm::StringMap<std::string> inferBufferExtents(gpu::LaunchFuncOp launch, func::FuncOp fn);

/// Records on every launcher in `module` that launches `kernel` the extents
/// the same launcher's launch in `lifted` (the module before a schedule
/// changed the kernel) infers for the buffers that the changed kernel's own
/// accesses do not bound, as ks.extents (kExtentsAttrName). The changed
/// kernel touches no more than the lifted one, so its launch manifest can
/// use them.
void recordLiftedExtents(ModuleOp module, ModuleOp lifted, StringRef kernel);

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
