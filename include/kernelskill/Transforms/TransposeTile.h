//===- TransposeTile.h - Stores staged through a shared tile ----*- C++ -*-===//
//
// A raised elementwise kernel whose forall runs over a 2-D space (i, j) and
// stores one element per point at an address contiguous along i, while it
// reads along j (a transpose: out[j][i] = in[i][j]), has coalesced reads or
// coalesced writes under any one mapping of threads, never both. This
// schedule computes each TI x TJ tile of the space with the threads along j
// (x = j: coalesced reads), keeps the values in a shared tile, and stores
// them with the threads along i (x = i: coalesced writes).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_TRANSPOSETILE_H
#define KERNELSKILL_TRANSFORMS_TRANSPOSETILE_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <string>

namespace mlir::ks {

/// The knobs of the transpose-tile schedule.
struct TransposeTileSchedule {
  /// The tile of the iteration space a block computes: {TI, TJ}.
  std::array<int64_t, 2> tile = {32, 32};
  /// Threads per block {X, Y}: X divides TJ and TI, Y divides TI and TJ.
  std::array<int64_t, 2> block = {32, 8};
  /// Elements added to each row of the shared tile (1 keeps the column
  /// reads of a 32-wide tile free of bank conflicts).
  int64_t pad = 1;
};

/// Why the knobs cannot apply on a chip with `maxThreads` threads per block;
/// empty when they can.
std::string verifyTransposeTile(const TransposeTileSchedule &s, int64_t maxThreads);

/// Whether the schedule applies to `forall` (the checks of
/// generateTransposeTile, without changing the IR); `why` says why not.
LogicalResult checkTransposeTile(scf::ForallOp forall, const TransposeTileSchedule &s,
                                 int64_t maxSharedBytes, std::string &why);

/// Whether the kernel's forall is a transpose: two dimensions, its one
/// store contiguous along the first (the store's last index is the first
/// iteration variable) while a load is contiguous along the second. Under
/// any one mapping of threads either the loads or the store are strided;
/// the shared tile makes both coalesced.
bool storesAcrossLoads(scf::ForallOp forall);

/// Rewrites the top-level forall of a raised kernel into the schedule's SIMT
/// code and its launch (the shared tile within `maxSharedBytes`). The body
/// must be one store of a value computed from loads of buffers it does not
/// write, at indices computed from the iteration variables alone; a kernel
/// that does not fit is refused before the IR changes, `why` saying why.
LogicalResult generateTransposeTile(scf::ForallOp forall, const TransposeTileSchedule &s,
                                    int64_t maxSharedBytes, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_TRANSPOSETILE_H
