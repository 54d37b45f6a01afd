//===- GridMapping.h - A raised forall back onto a grid of threads -*- C++ -*-===//
//
// The inverse of ks-raise-iteration-space with a block shape of the
// schedule's choosing: the forall's innermost dimension goes to x, the next
// to y, the product of the outer ones to z. With one point per thread the
// body runs under one bounds check. With `coarsen` = [CX, CY, CZ] each thread
// takes CX x CY x CZ points, `block` apart along each dimension (a warp's
// points stay adjacent: coalesced), so each thread has several points'
// loads in flight: a kernel with one load of its own per point (a stencil,
// a copy) otherwise leaves too few bytes in flight per SM to cover the
// memory's latency.
//
// A coarsened body that ends in its stores (a value computed from loads,
// stored at indices computed from the iteration variables) runs in two
// phases: every point's value first, then every point's stores, so the
// loads of all points are issued before the first store (the iterations of
// a forall are independent, so the order between points is free). Stores in
// both branches of an `scf.if` to the same element are first moved after
// it (the branch then yields the value). Other bodies are repeated point by
// point.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_GRIDMAPPING_H
#define KERNELSKILL_TRANSFORMS_GRIDMAPPING_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <string>

namespace mlir::ks {

/// The knobs of the grid mapping.
struct GridMappingSchedule {
  /// Threads per block along x, y, z.
  std::array<int64_t, 3> block = {256, 1, 1};
  /// Points per thread along x, y, z.
  std::array<int64_t, 3> coarsen = {1, 1, 1};
};

/// Why the knobs cannot apply on a chip with `maxThreads` threads per block;
/// empty when they can.
std::string verifyGridMapping(const GridMappingSchedule &s, int64_t maxThreads);

/// Rewrites the top-level forall of a raised kernel into threads of a grid
/// and rewrites its launches; a kernel that does not fit is refused before
/// the IR changes, `why` saying why.
LogicalResult generateGridMapping(scf::ForallOp forall, const GridMappingSchedule &s,
                                  std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_GRIDMAPPING_H
