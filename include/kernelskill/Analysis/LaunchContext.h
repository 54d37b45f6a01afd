//===- LaunchContext.h - The sizes a kernel is analyzed with ----*- C++ -*-===//
//
// The static analyses execute a kernel's index arithmetic, so they need
// numbers: the grid and block shape and the kernel's integer arguments. They
// come, in order of precedence, from the user (a `workload="M=1000,N=1023"`
// pass option), from the host launcher's `#ks.workload`, from constants in the
// launcher, from the kernel's `known_block_size`; whatever is still missing is
// assumed (1024 for a size, a block of 256 threads, a grid of 1024 blocks) and
// listed in `assumptions`, so every report says what it rests on.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_LAUNCHCONTEXT_H
#define KERNELSKILL_ANALYSIS_LAUNCHCONTEXT_H

#include "kernelskill/Analysis/WarpSimulation.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::ks {

/// Value assumed for an integer argument nobody gave a value for.
constexpr int64_t kAssumedScalar = 1024;

struct LaunchContext {
  LaunchShape launch;
  int64_t dynamicSharedBytes = 0;
  /// Values of the kernel's integer arguments, by argument number.
  llvm::DenseMap<unsigned, int64_t> scalars;
  /// Printable "name = value" for each of them, in argument order.
  std::vector<std::string> scalarText;
  /// Buffer extents in elements, by kernel argument number, where known.
  llvm::DenseMap<unsigned, int64_t> extents;
  /// What was assumed rather than given.
  std::vector<std::string> assumptions;
  /// Where the sizes came from, for the report: "#ks.workload of
  /// launch_gemm", "pass option", "assumed".
  std::string source;
};

/// Parses `NAME=VALUE[,NAME=VALUE...]` with Support/Formula.h's
/// parseWorkload (VALUE is an integer or a formula of the entries before it);
/// fails with a message naming the bad entry.
FailureOr<llvm::StringMap<int64_t>> parseWorkloadOption(StringRef text, std::string &error);

/// The sizes `kernel` is analyzed with. `overrides` are the pass option's
/// values by argument name (they win over everything else).
LaunchContext resolveLaunchContext(gpu::GPUFuncOp kernel, ModuleOp module,
                                   const llvm::StringMap<int64_t> &overrides);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_LAUNCHCONTEXT_H
