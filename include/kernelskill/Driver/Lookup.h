//===- Lookup.h - Finding a kernel and its launch by name -------*- C++ -*-===//
//
// The driver works on two modules at once (the one it rewrites and the
// lifted original it restores from and checks against), so it looks kernels
// and launches up by name in either.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_LOOKUP_H
#define KERNELSKILL_DRIVER_LOOKUP_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <utility>

namespace mlir::ks {

/// The kernel (a gpu.func marked kernel) named `name` in `module`, or null.
gpu::GPUFuncOp findKernel(ModuleOp module, StringRef name);

/// The first launch of `kernel` in `module` and the launcher holding it, or
/// nulls.
std::pair<gpu::LaunchFuncOp, func::FuncOp> findLaunch(ModuleOp module, StringRef kernel);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_LOOKUP_H
