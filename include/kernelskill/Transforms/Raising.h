//===- Raising.h - From lifted SIMT kernels to structured IR ----*- C++ -*-===//
//
// The raising steps of docs/Raising.md, each also a pass: counted loops,
// the iteration space, strided views, contractions. Each rewrites only what
// it can prove computes the same; on refusal it leaves the IR as it was and
// says why.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_RAISING_H
#define KERNELSKILL_TRANSFORMS_RAISING_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::ks {

// kRaisedAttrName, kNotRaisedAttrName (why not: the remarks say it at the
// source line, but a user of `ks optimize` sees the decisions only),
// kNoLauncherAttrName and kContractAttrName: KSDialect.h.

/// Erases the side-effect-free ops under `root` whose results are unused.
void eraseUnusedPureOps(Operation *root);

/// A counted scf.while to an scf.for over index; `why` on failure.
LogicalResult raiseCountedLoop(scf::WhileOp loop, std::string &why);

/// One thread per output (or a grid-stride loop) to an scf.forall, with the
/// launch rewritten to one thread.
LogicalResult raiseIterationSpace(gpu::GPUFuncOp kernel, std::string &why);

/// How a kernel that no launcher launches must be launched for the raising
/// to read it as one thread per point of its iteration space: one thread
/// per index below each dimension's bound.
struct CoveringLaunch {
  /// Per dimension (x, y, z): the kernel value that bounds the thread's
  /// global index (launch-invariant: computed from the scalar arguments);
  /// null where the kernel does not use the dimension.
  std::array<Value, 3> bound;
  /// Whether the bound is compared unsigned (`index < bound` as ult).
  std::array<bool, 3> unsignedBound{};
  /// The block size the kernel itself fixes (`blockIdx * C + threadIdx`).
  std::array<std::optional<int64_t>, 3> block;
};

/// The covering launch of a kernel whose work is behind one bounds check or
/// in one grid-stride loop (its counted loops raised), or why there is none:
/// the kernel communicates between threads, uses a block index alone (the
/// number of blocks is not bounded by the kernel), or bounds an index by
/// something other than its scalar arguments.
FailureOr<CoveringLaunch> inferCoveringLaunch(gpu::GPUFuncOp kernel, std::string &why);

/// Flat buffer accesses inside a raised kernel to accesses of strided
/// multi-dimensional views; returns how many accesses were rewritten.
/// `refusals` collects, per access left flat, the op and why.
unsigned raiseStridedViews(gpu::GPUFuncOp kernel,
                           SmallVectorImpl<std::pair<Operation *, std::string>> &refusals);

/// The scf.forall of a raised kernel, when its body is a reduction loop nest
/// over loads of views ending in one store, to linalg on tensors.
LogicalResult raiseContraction(scf::ForallOp forall, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_RAISING_H
