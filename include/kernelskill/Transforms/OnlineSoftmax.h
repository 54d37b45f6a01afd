//===- OnlineSoftmax.h - A row's max and sum of exponentials in one loop -*- C++ -*-===//
//
// Softmax's first two loops over a row, m = max_j x_j and then
// s = sum_j exp(x_j - m), read the row twice. The online form (Milakov and
// Gimelshein, "Online normalizer calculation for softmax", 2018) reads it
// once: one loop carries the running maximum and the sum relative to it,
//
//   m' = max(m, x_j)
//   s' = (m == m' ? s : s * exp(m - m')) + (x_j == -inf ? 0 : exp(x_j - m'))
//
// which is the same sum in exact arithmetic (each term is rescaled when the
// maximum grows; no term exceeds 1, so nothing overflows). The guards keep
// the IEEE special cases of the two-loop form: a row of -inf only still
// gives a NaN sum, a NaN or +inf in the row still poisons it. Partial
// (m, s) pairs of several threads combine the same way (combineOnlineSoftmax),
// which the row-reduction schedule uses across a row's lanes.
//
// Where the math allows: the max loop reduces one value x_j computed from
// loads of buffers the kernel does not write, the sum loop adds exp(y_j - m)
// from zero where y_j is computed as x_j is (the same ops on the same
// loads at its own loop variable) and m is the max loop's result, both
// loops have the same bounds and nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_ONLINESOFTMAX_H
#define KERNELSKILL_TRANSFORMS_ONLINESOFTMAX_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <utility>

namespace mlir::ks {

/// Two loops at a forall body's top level that the online form merges.
struct OnlineSoftmaxPair {
  scf::ForOp maxLoop; ///< m = max over the row of x_j (one iter_arg)
  scf::ForOp sumLoop; ///< s = sum over the row of exp(x_j - m), after maxLoop
};

/// The pairs of `forall`'s top-level loops the online form applies to
/// (analysis only: the IR is not changed).
SmallVector<OnlineSoftmaxPair> findOnlineSoftmaxPairs(scf::ForallOp forall);

/// Replaces the pair by one loop at the max loop's place carrying
/// (max, sum) as its iter_args 0 and 1; the uses of both loops' results
/// take the merged loop's (the sum through the all -inf guard). Returns the
/// merged loop.
scf::ForOp mergeOnlineSoftmaxPair(const OnlineSoftmaxPair &pair);

/// `s`, a sum relative to the max `m`, made relative to `next` (>= m):
/// s * exp(m - next), or s itself where m == next (also for two maxima of
/// -inf, where exp(-inf - -inf) would be NaN).
Value rescaleOnlineSum(OpBuilder &b, Location loc, Value m, Value s, Value next);

/// An element's term of the sum relative to the max `next`: exp(x - next),
/// or 0 for x = -inf (as exp(-inf - max) is for any max but -inf).
Value onlineSoftmaxTerm(OpBuilder &b, Location loc, Value x, Value next);

/// The (max, sum) of two partial pairs (mA, sA) and (mB, sB), each sum
/// relative to its own max; `maxOp` is the merged loop's max (cloned with
/// the operands replaced, so maxnumf stays maxnumf).
std::pair<Value, Value> combineOnlineSoftmax(OpBuilder &b, Location loc, Operation *maxOp,
                                             Value mA, Value sA, Value mB, Value sB);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_ONLINESOFTMAX_H
