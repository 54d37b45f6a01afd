//===- Restore.h - Giving a kernel back as it was lifted --------*- C++ -*-===//
//
// The driver never leaves a kernel slower or wrong: when no candidate is
// verified faster (measured), or none is predicted faster by the margin or
// verified on the CPU (static), the kernel comes back as the pipeline
// received it. Its raising also changed its launches (a raised kernel runs
// as one thread until a schedule maps it), so they come back too.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_RESTORE_H
#define KERNELSKILL_DRIVER_RESTORE_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::ks {

/// Puts the lifted `kernel` of `original` back in place of its raised (not
/// yet scheduled) form in `module`, with its launches as they were. A
/// launcher that launches only this kernel comes back whole; in one that
/// also launches others, each launch of this kernel is replaced by the
/// original's launch at the same place (the n-th of the kernel's launches),
/// with the host arithmetic it reads cloned from the original launcher (pure
/// ops only, in the same loops). Fails with why when the original has no
/// such kernel or launcher, the launches do not correspond (another count,
/// another nesting, another signature), or a launch reads host code that is
/// not pure arithmetic.
LogicalResult restoreOriginal(ModuleOp module, ModuleOp original, StringRef kernel,
                              std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_RESTORE_H
