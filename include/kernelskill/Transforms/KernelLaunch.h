//===- KernelLaunch.h - A kernel and the launches that run it ---*- C++ -*-===//
//
// Raising and scheduling change how a kernel is launched: raising makes the
// iteration space explicit (the launch becomes one thread), a schedule maps
// it back onto a grid of its own choosing. These helpers find the host
// launches of a kernel, translate kernel-side scalar computations (sizes,
// tile counts) to the launch site, and rewrite the launch dimensions.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_KERNELLAUNCH_H
#define KERNELSKILL_TRANSFORMS_KERNELLAUNCH_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::scf {
class IfOp;
} // namespace mlir::scf

namespace mlir::ks {

/// Checks a pass's `kernels=` option: every name must be a kernel of
/// `module`. Otherwise emits "<pass>: kernels=: no kernel named '<name>'"
/// with the module's kernels at the module and fails.
LogicalResult checkKernelNames(ModuleOp module, ArrayRef<std::string> names, StringRef pass);

/// Every gpu.launch_func of `kernel` in the module that holds it.
SmallVector<gpu::LaunchFuncOp> getLaunches(gpu::GPUFuncOp kernel);

/// Whether `launcherValue` is a parameter of its function (the launcher)
/// that carries the argument attribute `attr` (the importer's
/// `ks.allocated`, `ks.scratch`, `ks.restrict`).
bool isLauncherParamWith(Value launcherValue, StringRef attr);

/// The branch of a result-less `ifOp` that holds work when the other one is
/// empty or absent (a guard, or an early return: `if (out) {} else {...}`),
/// and in `inElse` whether it is the else-branch; null when both or neither
/// hold work.
Block *guardedBranch(scf::IfOp ifOp, bool *inElse = nullptr);

/// `v` without index_cast, index_castui, extsi and extui around it (the casts
/// the importer writes between i32 and index). Truncations are kept.
Value stripExtensions(Value v);

/// Whether `v` is computed from the kernel's scalar arguments and constants
/// by side-effect-free ops alone (so it has the same value in every thread
/// and can be recomputed at the launch site).
bool isLaunchInvariant(Value v, gpu::GPUFuncOp kernel);

/// Recomputes the launch-invariant kernel value `v` before `launch`, with the
/// kernel's arguments replaced by the values the launch passes; null when `v`
/// is not launch-invariant.
Value cloneIntoLauncher(Value v, gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch,
                        OpBuilder &builder);

/// Replaces `launch` by one with the given grid, block and dynamic shared
/// memory (index values at the launch site; a null `smem` means none) and
/// returns it.
gpu::LaunchFuncOp setLaunchDims(gpu::LaunchFuncOp launch, std::array<Value, 3> grid,
                                std::array<Value, 3> block, Value smem);

/// `v` (an integer or index value) as an index: extended unsigned where it
/// is compared unsigned, signed otherwise.
Value castToIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned);

/// Whether `a` and `b` hold the same integer whenever both are defined:
/// the same value through sign extensions and index_cast, or the same
/// addition or multiplication (either operand order) of such values where
/// neither can wrap (64-bit or index arithmetic, or nsw). For strides
/// computed twice: `ny * nx` in index and `(long)nx * ny` in i64.
bool sameSignedValue(Value a, Value b, int depth = 6);

/// The constant value of an index or integer SSA value, through extensions.
std::optional<int64_t> getConstantIntValue(Value v);

/// Whether the launcher values `grid` and `block` give at least `bound`
/// threads along one dimension: `grid` computes ceil(bound / block) as
/// (bound + block - 1) / block (either division), ceildiv, or `grid` and
/// `block` are constants whose product is at least a constant `bound`.
bool launchCovers(Value grid, Value block, Value bound);

/// Whether `kernel` reads the block index along `dim` (a dimension the
/// raising left on the grid).
bool readsBlockIndex(gpu::GPUFuncOp kernel, gpu::Dimension dim);

/// Rewrites every launch of `kernel`: `grid` holds kernel-side index values
/// (launch-invariant: recomputed at each launch site) or null for a
/// dimension left as it was; `block` the threads per block.
LogicalResult rewriteLaunch(gpu::GPUFuncOp kernel, std::array<Value, 3> grid,
                            std::array<int64_t, 3> block, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_KERNELLAUNCH_H
