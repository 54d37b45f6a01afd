//===- SequentialTree.h - Interleaved tree reductions, sequential -*- C++ -*-===//
//
// The textbook first block reduction halves its active threads by
// `tid % (2 * s) == 0` with s = 1, 2, 4, ...: the active threads of a warp
// are spread out (divergence in every warp until the last steps) and their
// shared-memory accesses stride by 2s (bank conflicts). Sequential
// addressing, s = blockDim / 2, ..., 1 with `tid < s`, keeps the active
// threads contiguous: whole warps retire, and a warp reads consecutive
// words. Both leave the total in element 0; the partial sums elsewhere
// differ, and an operation that is not exactly associative (float
// addition) rounds differently.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_SEQUENTIALTREE_H
#define KERNELSKILL_TRANSFORMS_SEQUENTIALTREE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <string>

namespace mlir::ks {

/// Rewrites every interleaved or strided tree reduction of `kernel` (not raised: the
/// SIMT form, threads and barriers explicit) to sequential addressing:
///
///   for (s = 1; s < blockDim.x; s *= 2) {          for (s = blockDim.x / 2; s > 0; s >>= 1) {
///     if (tid % (2 * s) == 0)                 ->     if (tid < s)
///       a[tid] = a[tid] OP a[tid + s];                  a[tid] = a[tid] OP a[tid + s];
///     __syncthreads();                                __syncthreads();
///   }                                              }
///
/// or the strided form, `i = 2 * s * tid; if (i < blockDim.x) a[i] = a[i] OP
/// a[i + s]` (the same updates, by other threads: contiguous, but its
/// accesses stride by 2s), to the same loop on the right,
/// with `a` a one-dimensional array in shared memory, tid the thread index
/// along x and OP commutative and associative (float or integer addition
/// and multiplication, min, max, and, or, xor). Needs: every launch of the
/// kernel has a constant power-of-two block along x and one thread along y
/// and z (otherwise the two orders do not cover the same elements); no
/// loop around the reduction; after it, `a` read only at element 0; the
/// loop's result unused; the strided `2 * s * tid` at least 32 bits wide and
/// used only by the guard and the update. Returns how many loops were rewritten; with none,
/// `why` says what the first candidate lacked.
int rewriteInterleavedTrees(gpu::GPUFuncOp kernel, std::string &why);

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_SEQUENTIALTREE_H
