//===- ScheduleCost.h - Predicted time of a scheduled contraction -*- C++ -*-===//
//
// The agent driver's analytical cost model: the time of a contraction
// kernel under one point of a schedule family's knob space
// (Agents/ScheduleFamily.h), before it is compiled (with the claims'
// register estimate) or after (with ptxas's registers). It ranks
// candidates; it is not a simulator. The terms (docs/Agents.md, "The cost
// model"):
//
//   outer_product: blocks per SM from the occupancy calculator; the
//     instructions each thread issues per reduction step (FMAs, shared
//     loads of the register fragments, staging loads and stores, loop
//     overhead) over the SM's issue rate, times the blocks each SM runs
//     (ceil(blocks / SMs), the wave quantization); the global latency of
//     each step that the step's arithmetic does not cover; the L2 and DRAM
//     bytes over their bandwidths as floors; split-K's atomics.
//   split_reduction: the bytes that must move over the DRAM bandwidth,
//     slowed by memory-level parallelism (bytes in flight against
//     bandwidth x latency, as the profiler's latency term).
//
// Pure C++ over GPUCapabilities: the unit tests pin its rankings to the
// measurements they were fitted on (bench/results/...-contraction-run2).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_SCHEDULECOST_H
#define KERNELSKILL_ANALYSIS_SCHEDULECOST_H

#include "kernelskill/Support/ArchDatabase.h"
#include "kernelskill/Support/Formula.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::ks {

/// The contraction's sizes: products over the dimensions of each role.
struct ContractionSizes {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  int64_t elementBytes = 4;
  /// Multiply-adds may become FMAs (the source's contraction); otherwise
  /// each is a multiply and an add.
  bool fma = true;
};

/// A kernel whose iteration space is rows walked in loops (softmax, the
/// normalizations, row reductions), at the workload.
struct RowSizes {
  int64_t rows = 1;       ///< points of the forall
  int64_t length = 1;     ///< elements per row (the row loops' trip count)
  int64_t readPasses = 1; ///< loops over the row that read memory
  bool writes = false;    ///< a loop over the row stores (a row out per row in)
  /// The loops read along the row's contiguous dimension (the loop's
  /// variable is the loads' unit-stride index): a row walk, not a column walk.
  bool contiguous = true;
  /// Not contiguous, but adjacent: the loads the loops walk by their
  /// variable take the forall's innermost variable as their unit-stride index, so
  /// the rows of neighbouring points lie side by side (a column sum: one
  /// column per point, walked down its rows).
  bool adjacent = false;
  int64_t elementBytes = 4;
  /// Loads a later loop makes from read-only buffers at the loop's variable
  /// (RMSNorm's weight[j]), which the schedule's prefetch issues early.
  int64_t prefetchable = 0;
  /// Pairs of a max loop and a sum of exp(x - max) that the schedule's
  /// `online` merges into one read of the row.
  int64_t onlinePairs = 0;
};
/// A two-dimensional elementwise space (a transpose), at the workload.
struct TileSizes {
  int64_t rows = 1, cols = 1; ///< the forall's extents, outer first
  int64_t elementBytes = 4;
};
/// A 2-D or 3-D stencil's space (each point read at neighbouring points of
/// one input, written once), at the workload.
struct StencilSizes {
  llvm::SmallVector<int64_t, 3> extents = {1, 1}; ///< the forall's, outermost first
  /// The spread of the outermost dimension's offsets (hi - lo: 2 for
  /// in[i-1] ... in[i+1]).
  int64_t halo = 2;
  int64_t elementBytes = 4;
};
struct ScheduleCost {
  double seconds = 0;
  double occupancy = 0;        ///< resident warps / max warps per SM
  int64_t blocks = 0;          ///< blocks launched
  int64_t blocksPerSM = 0;     ///< resident at once
  std::string bound;           ///< the term that dominates
  std::string explanation;     ///< one line for the transcript
};

/// Global-memory round-trip latency the model assumes, in SM cycles (the
/// profiler's, Analysis/KernelProfile.h).
inline constexpr double kScheduleLatencyCycles = 430;
/// The fraction of the issue rate the FMA loops of an outer-product
/// schedule reach (dependent-issue stalls, bank conflicts of the fragment
/// loads): fitted to the H200 run 2 GEMMs (0.85 of cuBLAS at 4096³).
inline constexpr double kIssueEfficiency = 0.8;

/// `knobs` are the outer_product family's, complete (ScheduleFamily::complete).
ScheduleCost predictOuterProduct(const GPUCapabilities &caps, const ContractionSizes &sizes,
                                 const ScalarValues &knobs, int64_t registers,
                                 int64_t sharedBytes);

/// `knobs` are the split_reduction family's, complete; one of m and n is 1
/// (the outputs are the other).
/// `knobs` are the row_reduction family's, complete (T, R, V, U, C): the
/// bytes that must move (each pass over a row that is not kept in
/// registers reads it again), over the DRAM bandwidth slowed by
/// memory-level parallelism as for split_reduction (cached rows have all
/// their turns' loads in flight at once, others U turns of V elements),
/// plus the latency of each loop's combine across the row's threads
/// (shuffles; shared memory and barriers for more than a warp) that the
/// other resident rows do not cover.
ScheduleCost predictRowReduction(const GPUCapabilities &caps, const RowSizes &sizes,
                                 const ScalarValues &knobs, int64_t registers,
                                 int64_t sharedBytes);
/// `knobs` are the transpose_tile family's, complete (TI, TJ, BX, BY, PAD):
/// every element read once and written once over the DRAM bandwidth,
/// slowed by memory-level parallelism (a thread's TI*TJ/(BX*BY) loads of
/// the first phase in flight at once) and by too few blocks.
ScheduleCost predictTransposeTile(const GPUCapabilities &caps, const TileSizes &sizes,
                                  const ScalarValues &knobs, int64_t registers,
                                  int64_t sharedBytes);
/// The register window (family register_window: DIMS, K points per thread
/// along the outermost dimension, BX x BY threads): every point read once
/// and written once over the DRAM bandwidth (the halo's extra reads served
/// by the L2), slowed by memory-level parallelism (a thread's column of
/// K + halo loads in flight at once) and by too few blocks.
ScheduleCost predictRegisterWindow(const GPUCapabilities &caps, const StencilSizes &sizes,
                                   const ScalarValues &knobs, int64_t registers,
                                   int64_t sharedBytes);
ScheduleCost predictSplitReduction(const GPUCapabilities &caps, const ContractionSizes &sizes,
                                   const ScalarValues &knobs, int64_t registers,
                                   int64_t sharedBytes);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_SCHEDULECOST_H
