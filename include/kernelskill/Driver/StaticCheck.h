//===- StaticCheck.h - What a static decision must pass ---------*- C++ -*-===//
//
// Without measurements the driver applies a schedule only when (1) a model
// predicts it faster than the input by a margin and (2) with verify=emulate,
// the CPU emulation finds it computing what the input computes
// (docs/Agents.md, "Static decisions"). (1) needs a prediction for every
// candidate: a searched one has the cost model's; a schedule applied with
// its family's defaults, or a SIMT-level rewrite, has none, so the kernel
// profiler's time model (the one behind the input's ks.predicted_time) is
// run on the rewritten kernel instead.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_STATICCHECK_H
#define KERNELSKILL_DRIVER_STATICCHECK_H

#include "kernelskill/Driver/Emulation.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::ks {

/// Applies a candidate's schedule to a copy of the module.
using ApplyToCopy = llvm::function_ref<LogicalResult(ModuleOp)>;

/// The kernel profiler's predicted seconds for `kernel` after `apply` (on a
/// copy of `module`, the facts the profilers attached to the input dropped:
/// they describe the input), at `workload`; nothing, with why, when the
/// schedule does not apply or the rewritten kernel is not one the profiler
/// models (still linalg).
std::optional<double> predictRewrittenSeconds(ModuleOp module, StringRef kernel,
                                              ApplyToCopy apply,
                                              const llvm::StringMap<int64_t> &workload,
                                              std::string &why);

/// What the CPU check needs besides the modules.
struct CPUCheckSettings {
  std::string emulator; ///< ks-emulate.py
  std::string workDir;  ///< where the exports and the log go
  int timeoutSeconds = 300;
  bool tf32 = false; ///< the precision allows TF32's tolerance
  llvm::StringMap<int64_t> workload; ///< the workload= option's sizes
};

/// Runs `kernel` after `apply` (on a copy of `module`, every other kernel
/// still raised given back as `original` has it) against `original` on the
/// CPU, through the original's launcher of the kernel, at a small odd
/// workload (emulationWorkload of the launch's sizes): both exported to CUDA
/// C++ and compared by the emulator. `workloadUsed` gets the sizes.
EmulationVerdict checkOnCPU(ModuleOp module, ModuleOp original, StringRef kernel,
                            ApplyToCopy apply, const CPUCheckSettings &settings,
                            std::string &workloadUsed);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_STATICCHECK_H
