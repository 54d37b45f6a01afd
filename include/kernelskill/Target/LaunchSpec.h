//===- LaunchSpec.h - The launch spec of a kernel ---------------*- C++ -*-===//
#ifndef KERNELSKILL_TARGET_LAUNCHSPEC_H
#define KERNELSKILL_TARGET_LAUNCHSPEC_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <string>

namespace mlir::ks {

/// The JSON launch spec (docs/Runtime.md) of `launch` in launcher `fn`:
/// parameters, grid/block/shared-memory formulas, workload values. Buffer
/// extents come from the launcher's #ks.workload; without one, a missing
/// extent is an error when `requireExtents`, else left out (a manifest).
FailureOr<std::string> buildLaunchSpec(gpu::LaunchFuncOp launch, func::FuncOp fn,
                                       bool requireExtents);

} // namespace mlir::ks

#endif // KERNELSKILL_TARGET_LAUNCHSPEC_H
