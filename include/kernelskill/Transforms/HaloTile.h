//===- HaloTile.h - Stencil inputs staged through a shared halo tile -*- C++ -*-===//
//
// A raised kernel whose forall runs over a 2-D or 3-D space and whose body
// reads a buffer at the point and at neighbouring points (a stencil:
// in[i][j], in[i-1][j], in[i][j+1], ...) reads each element of that buffer
// several times, from several threads. This schedule gives each block a
// tile of the space: the block first loads the tile of the buffer plus the
// halo its offsets reach, all at once and coalesced, into shared memory;
// after a barrier each thread computes its points of the tile, reading the
// staged buffer from the shared tile. Streamed, a block walks its tile's
// outermost dimension plane by plane through a window of planes. In
// registers, each thread keeps a column of consecutive points along the
// outermost dimension and the values its offsets reach there.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_HALOTILE_H
#define KERNELSKILL_TRANSFORMS_HALOTILE_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::ks {

/// The knobs of the halo-tile schedule.
struct HaloTileSchedule {
  /// The tile of the iteration space a block computes, one size per
  /// dimension of the forall, outermost first (2 or 3 sizes).
  SmallVector<int64_t, 3> tile;
  /// Threads per block, x first (x along the forall's innermost dimension):
  /// as many sizes as `tile`, each dividing the tile's size along its
  /// dimension; each thread computes tile / block points per dimension,
  /// `block` apart.
  SmallVector<int64_t, 3> block;
  /// Walk the outermost dimension, `stream` planes per step (0: no walk):
  /// each block takes tile[0] consecutive planes (rows of a 2-D space),
  /// `stream` at a time, keeping in shared memory only the planes the step
  /// and the offsets reach (a window of stream + hi - lo, `stream` new
  /// planes loaded per step, all their loads in flight at once), so each
  /// element is loaded about once instead of once per tile it borders.
  /// The block has one thread along that dimension; `stream` divides
  /// tile[0].
  int64_t stream = 0;
  /// Hold the staged values in registers instead of shared memory (a
  /// register window along the outermost dimension): each thread takes
  /// tile[0] / block consecutive points along dimension 0 (at most 32) and
  /// one point along the others (tile == block there), and loads its column
  /// of each staged buffer (the points plus the halo along dimension 0)
  /// once, all loads in flight together; only the loads that differ from
  /// the point along dimension 0 alone are staged. No barrier, no shared
  /// memory; neighbours along the other dimensions stay global loads (the
  /// L1 cache serves them).
  bool registers = false;
};

/// Why the knobs cannot apply on a chip with `maxThreads` threads per block;
/// empty when they can.
std::string verifyHaloTile(const HaloTileSchedule &s, int64_t maxThreads);

/// Whether the schedule applies to the forall of a raised kernel (the
/// generator's own analysis, the IR unchanged): `why` says why not. With
/// `outerSpread`, the largest spread (highest minus lowest offset) of a
/// staged buffer's reads along the outermost dimension.
LogicalResult checkHaloTile(scf::ForallOp forall, const HaloTileSchedule &s,
                            int64_t maxSharedBytes, std::string &why,
                            int64_t *outerSpread = nullptr);

/// Rewrites the top-level forall of a raised kernel into the schedule's SIMT
/// code and its launch (the shared tiles within `maxSharedBytes`). Every
/// buffer the kernel does not write and the body reads at two or more
/// offsets from the point (index = iteration variable + constant, through
/// views whose offsets are constant multiples of their strides) is staged;
/// its other loads, and every other buffer, stay global. Refused before the
/// IR changes, `why` saying why.
LogicalResult generateHaloTile(scf::ForallOp forall, const HaloTileSchedule &s,
                               int64_t maxSharedBytes, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_HALOTILE_H
