//===- PrivatizedAtomics.h - Scattered atomics into shared bins -*- C++ -*-===//
//
// A raised kernel whose forall adds one value per point into a small buffer
// at a data-dependent index (a histogram: `atomicAdd(&bins[in[i]], 1)`)
// makes every thread of the GPU contend for the same few global counters,
// each update a round trip to L2. This schedule gives each block a private
// copy of the first `bins` counters in shared memory: the block zeroes it,
// its threads add into it (shared-memory atomics), and after a barrier the
// block adds each non-zero private counter into the global one, once.
// Updates at an index the private copy does not hold go to the global
// buffer as before, so the schedule is exact for any index; where the index
// is provably below `bins` (a byte, `x & 255`, `x % 256`) that test is
// left out.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_PRIVATIZEDATOMICS_H
#define KERNELSKILL_TRANSFORMS_PRIVATIZEDATOMICS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>
#include <string>

namespace mlir::ks {

/// The knobs of the privatized-atomics schedule.
struct PrivatizedAtomicsSchedule {
  /// Counters held in shared memory per block (indices 0 .. bins-1).
  int64_t bins = 256;
  /// Threads per block (one dimension).
  int64_t threads = 256;
  /// Points of the forall per thread: block b takes the points
  /// [b * threads * items, (b + 1) * threads * items), thread t every
  /// `threads`-th of them from b * threads * items + t (coalesced).
  int64_t itemsPerThread = 16;
  /// Points whose loads are issued before their updates (divides
  /// itemsPerThread): the atomics would otherwise wait for each load in turn.
  int64_t unroll = 4;
  /// Copies of the counters per block (a power of two dividing the block's
  /// warps): warp w adds into copy w % copies, the merge sums the copies.
  /// Fewer warps contend for one shared counter when a few bins take most
  /// updates (a skewed input); more shared memory to zero and merge.
  int64_t copies = 1;
  /// Warp-aggregated updates: the lanes of a warp that update the same
  /// private counter are matched (match.any), and the lowest of them adds
  /// the value times their count. Needs the added value to be the same at
  /// every point (a constant, or a value defined outside the forall).
  bool aggregate = false;
};

/// Why the knobs cannot apply on a chip with `maxThreads` threads per block;
/// empty when they can.
std::string verifyPrivatizedAtomics(const PrivatizedAtomicsSchedule &s, int64_t maxThreads);

/// An exclusive upper bound of the index value `v` that holds in every
/// thread (from the extension of a narrow integer, a mask, a remainder or a
/// minimum by a constant; none when nothing proves one). `v` is also
/// non-negative wherever a bound is returned.
std::optional<int64_t> provenIndexBound(Value v);

/// Whether the schedule applies to `forall` (the checks of
/// generatePrivatizedAtomics, without changing the IR); `why` says why not.
LogicalResult checkPrivatizedAtomics(scf::ForallOp forall, const PrivatizedAtomicsSchedule &s,
                                     int64_t maxSharedBytes, std::string &why);

/// Rewrites the top-level forall of a raised kernel into the schedule's SIMT
/// code and its launch (the private counters within `maxSharedBytes`). The
/// body must end in one `memref.atomic_rmw` (addi or addf, its result
/// unused) on a one-dimensional view defined outside the forall that
/// nothing else in the kernel reads or writes, the ops before it only
/// reading memory; a kernel that does not fit is refused before the IR
/// changes, `why` saying why.
LogicalResult generatePrivatizedAtomics(scf::ForallOp forall, const PrivatizedAtomicsSchedule &s,
                                        int64_t maxSharedBytes, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_PRIVATIZEDATOMICS_H
