//===- Contraction.h - Raised contractions and their SIMT schedules -*- C++ -*-===//
//
// A raised contraction (ks-raise-contractions) is a group of linalg ops on
// tensors of strided views inside a kernel: the init (linalg.fill), the
// reduction (a linalg contraction), an optional elementwise epilogue, and
// the materialize_in_destination into the output view. ContractionProblem
// is that group read back: for each iteration dimension its role (batch, m,
// n, k) and size, for each operand its view and indexing map, the epilogue.
//
// The schedules are parameterized code generators that turn a problem into
// SIMT code for one kernel, and rewrite its launch: they make no choices of
// their own (the knobs come from a transform script, later from the
// agents), and refuse with a diagnostic when a knob cannot apply.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_TRANSFORMS_CONTRACTION_H
#define KERNELSKILL_TRANSFORMS_CONTRACTION_H

#include "kernelskill/Dialect/KS/IR/KSDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <functional>
#include <string>

namespace mlir::ks {

/// One tensor operand of the contraction, read through a strided view.
struct ContractionOperand {
  Value view;   ///< the memref (a reinterpret_cast of a kernel buffer)
  AffineMap map; ///< iteration dimensions -> view indices
  /// The view dimension with a constant unit stride, if any.
  std::optional<unsigned> contiguousDim;
};

/// A raised contraction group, read back from the IR.
struct ContractionProblem {
  linalg::LinalgOp contraction;
  linalg::FillOp fill;                  ///< the init
  linalg::GenericOp epilogue;           ///< null when the result is stored as is
  bufferization::MaterializeInDestinationOp store;
  gpu::GPUFuncOp kernel;

  /// Iteration dimensions of the contraction by role, each in order.
  SmallVector<unsigned> batch, m, n, k;
  SmallVector<Value> sizes;             ///< per iteration dimension, an index value
  ContractionOperand lhs, rhs;          ///< the inputs holding the m and the n dimensions
  bool lhsIsInput0 = true;              ///< operand order of the multiply
  ContractionOperand out;               ///< the stored view, over the parallel dimensions
  /// The epilogue's other inputs (beyond the contraction's result), over the
  /// parallel dimensions.
  SmallVector<ContractionOperand> epilogueInputs;
  unsigned epilogueResultInput = 0;     ///< which epilogue input is the contraction's result
  Value init;                           ///< the fill value
  bool contract = false;                ///< multiply-adds may become FMAs
  Type elementType;

  unsigned numLoops() const { return sizes.size(); }
  /// Which parallel dimension of the output an iteration dimension is.
  SmallVector<unsigned> parallelDims() const;
};

/// The one contraction (a linalg op with a reduction dimension) of a raised
/// kernel; fails, saying why, when there is none or more than one.
FailureOr<linalg::LinalgOp> findKernelContraction(gpu::GPUFuncOp kernel, std::string &why);

/// Puts a raised contraction (a linalg.generic just built from loops) in the
/// form the schedules take: `out + in0 * in1` from a fill. Loop-invariant
/// factors of the product and an init that is not a fill move to an
/// elementwise generic after it (`init + factors * sum`), fused with the
/// init's generic and with an elementwise epilogue that follows; returns
/// whether it changed anything (ContractionNormalForm.cpp).
bool normalizeContraction(RewriterBase &rewriter, linalg::GenericOp contraction);

/// Reads the group around `op` (a linalg contraction in a raised kernel);
/// on failure, `why` says what does not fit.
FailureOr<ContractionProblem> analyzeContraction(linalg::LinalgOp op, std::string &why);

/// The knobs of the outer-product schedule (the GEMM family): each block
/// computes a BM x BN tile of the output; its warps a grid of warp tiles;
/// each lane RM x RN repetitions of a TM x TN micro-tile; the reduction
/// runs in steps of BK through shared memory.
struct OuterProductSchedule {
  int64_t blockM = 128, blockN = 128, blockK = 8;
  int64_t warpsM = 2, warpsN = 4;   ///< warps per block along m and n
  int64_t lanesM = 4, lanesN = 8;   ///< lanes per warp along m and n (product 32)
  int64_t threadM = 4, threadN = 4; ///< micro-tile per lane (TM x TN)
  /// Shared-memory order of each staged tile: true = k outermost ([BK][BM]),
  /// false = k innermost ([BM][BK]).
  bool lhsKOuter = true, rhsKOuter = true;
  int64_t lhsPad = 0, rhsPad = 0;   ///< elements added to each shared row
  bool lhsSwizzle = false, rhsSwizzle = false; ///< XOR swizzle of 16-byte chunks
  int64_t lhsVector = 1, rhsVector = 1;        ///< elements per global load (1, 2, 4)
  int64_t stages = 1;               ///< shared buffers in flight (1 to 4)
  bool asyncCopy = false;           ///< cp.async (sm_80+) instead of loads and stores
  int64_t groupM = 1;               ///< blocks of one column group before the next (L2 reuse)
  int64_t storeVector = 1;          ///< elements per output store (1 or 4)
  /// Blocks that split each tile's reduction (blockIdx.y): each adds its
  /// partial sum atomically into the output, which a first kernel set to the
  /// epilogue's offset (it must be alpha * acc + offset).
  int64_t splitK = 1;

  int64_t threads() const { return 32 * warpsM * warpsN; }
  int64_t repeatM() const { return blockM / (warpsM * lanesM * threadM); }
  int64_t repeatN() const { return blockN / (warpsN * lanesN * threadN); }
  /// Bytes of shared memory per block.
  int64_t sharedBytes(int64_t elementBytes) const;
};

/// Checks the schedule against the problem and the chip's limits
/// (`maxThreads`, `maxSharedBytes`); returns a message naming the knob that
/// does not fit, or an empty string.
std::string verifyOuterProduct(const ContractionProblem &problem, const OuterProductSchedule &s,
                               int64_t maxThreads, int64_t maxSharedBytes);

/// Generates the kernel's SIMT code for the problem and rewrites its launch.
/// The schedule must have passed verifyOuterProduct.
LogicalResult generateOuterProduct(ContractionProblem &problem, const OuterProductSchedule &s,
                                   std::string &why);

/// The knobs of the split-reduction schedule (the GEMV family): each block
/// computes `blockOutputs` outputs (the linearized parallel dimensions);
/// its threads split into `lanesOut` x `lanesRed` lanes per warp and
/// `warpsOut` x `warpsRed` warps, each thread loading `vector` consecutive
/// elements along the contiguous dimension per step and `unroll` steps at
/// a time. Partial sums are combined with warp shuffles, then through
/// shared memory across warps.
struct SplitReductionSchedule {
  int64_t lanesOut = 1, lanesRed = 32;
  int64_t warpsOut = 8, warpsRed = 1;
  int64_t outputsPerThread = 1; ///< consecutive outputs per thread (a vector along the output)
  int64_t vector = 1;           ///< consecutive reduction elements per load
  int64_t unroll = 1;           ///< independent loads in flight per thread

  int64_t threads() const { return 32 * warpsOut * warpsRed; }
  int64_t blockOutputs() const { return lanesOut * warpsOut * outputsPerThread; }
};

std::string verifySplitReduction(const ContractionProblem &problem,
                                 const SplitReductionSchedule &s, int64_t maxThreads,
                                 int64_t maxSharedBytes);
LogicalResult generateSplitReduction(ContractionProblem &problem, const SplitReductionSchedule &s,
                                     std::string &why);

// kUnrollAttrName (the loops ks-unroll-marked-loops unrolls): KSDialect.h.

} // namespace mlir::ks

#endif // KERNELSKILL_TRANSFORMS_CONTRACTION_H
