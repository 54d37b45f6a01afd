//===- RowReduction.h - The row-reduction family's SIMT schedule -*- C++ -*-===//
//
// A raised kernel that runs one row per iteration of its forall and walks
// the row in sequential loops (a row sum or maximum, an argmax, softmax's
// max / sum / normalize, LayerNorm's mean / variance / normalize, RMSNorm) leaves each
// thread reading its own row: the warp's reads are strided by a row and a
// grid of rows / 128 blocks may not fill the GPU. This schedule gives each
// row a group of threads instead: every loop over the row is split across
// the group's lanes (each lane takes `vector` consecutive elements in turn,
// `unroll` turns per iteration with their loads issued first), the loops'
// reductions are combined across the group (warp shuffles, then shared
// memory when the group spans several warps) so every lane holds the row's
// totals, and the work between the loops runs in every lane (its stores in
// the group's first lane only). With `interleaved`, a row's lanes are
// spread across the block instead (for forall iterations adjacent in
// memory, as a column sum's columns are).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_ROWREDUCTION_H
#define KERNELSKILL_TRANSFORMS_ROWREDUCTION_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::ks {

/// The knobs of the row-reduction schedule.
struct RowReductionSchedule {
  /// Threads that share a row (a power of two; 32 = a warp per row, more =
  /// a block per row, combined through shared memory).
  int64_t threadsPerRow = 32;
  /// Rows per block (1 when a row takes more than a warp).
  int64_t rowsPerBlock = 4;
  /// Consecutive elements a lane takes per turn (1, 2, 4 or 8; loads of
  /// views contiguous along the row become vector loads where aligned).
  int64_t vector = 1;
  /// Turns per iteration of a split loop (their loads issued first).
  int64_t unroll = 1;
  /// With C > 0, rows of up to threadsPerRow x vector x C elements (every
  /// loop's) are read once: each lane keeps the elements that several loops
  /// read in registers; longer rows take the uncached version.
  int64_t cachedTurns = 0;
  /// Lanes of a row `rowsPerBlock` threads apart (lane l of the block's row
  /// g is thread l * rowsPerBlock + g) instead of consecutive: a warp then
  /// reads the same element of 32 rows, coalesced where the rows are
  /// adjacent in memory (a column sum: the forall runs over columns). The
  /// partials are combined through shared memory.
  bool interleaved = false;
  /// With cached_turns: the loads a later loop over the row makes from a
  /// buffer the kernel does not write, at the loop's variable (RMSNorm's
  /// weight[j] after the sum of squares), issued by the first loop of the
  /// same bounds with the row's own loads and kept in registers (V x C
  /// more per buffer), so the later loop waits on no memory after the
  /// row's reduction. Nothing changes in a kernel without such loads.
  bool prefetch = false;
  /// A loop taking the row's maximum and a later one summing exp(x - max)
  /// (softmax's first two) become one loop that carries the running maximum
  /// and the sum relative to it (include/kernelskill/Transforms/OnlineSoftmax.h):
  /// one read of the row fewer where it is not kept in registers. Nothing
  /// changes in a kernel without such a pair.
  bool online = false;

  int64_t threads() const { return threadsPerRow * rowsPerBlock; }
};

/// Why the knobs cannot apply on a chip with `maxThreads` threads per block;
/// empty when they can.
std::string verifyRowReduction(const RowReductionSchedule &s, int64_t maxThreads);

/// What the optional knobs would find in a kernel (whatever the schedule's
/// own settings).
struct RowReductionFacts {
  int64_t prefetchableLoads = 0; ///< the loads `prefetch` would issue early
  int64_t onlinePairs = 0;       ///< the loop pairs `online` would merge
};

/// Whether the schedule applies to `forall` (the checks of
/// generateRowReduction, without changing the IR); `why` says why not.
/// `facts`, when given, receives what the optional knobs would find.
LogicalResult checkRowReduction(scf::ForallOp forall, const RowReductionSchedule &s,
                                int64_t maxSharedBytes, std::string &why,
                                RowReductionFacts *facts = nullptr);

/// Rewrites the top-level forall of a raised kernel into the schedule's
/// SIMT code and its launch (shared memory for the warp totals within
/// `maxSharedBytes`); a kernel that does not fit is refused before the IR
/// changes, `why` saying what does not fit.
LogicalResult generateRowReduction(scf::ForallOp forall, const RowReductionSchedule &s,
                                   int64_t maxSharedBytes, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_ROWREDUCTION_H
