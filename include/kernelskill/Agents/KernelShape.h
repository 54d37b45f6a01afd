//===- KernelShape.h - What the proposing agents see of a kernel -*- C++ -*-===//
//
// The facts the memory, compute and resource agents decide on, read once
// per kernel: the raised contraction (if the kernel has exactly one), its
// class (GEMM-like: outputs along both m and n; GEMV-like: outputs along
// one of them), each operand's contiguous dimension, the sizes from the
// launch context (Analysis/LaunchContext.h) and the profiler's findings;
// for a raised kernel without a contraction, its forall and, where it
// walks rows in loops, the rows' sizes.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_KERNELSHAPE_H
#define KERNELSKILL_AGENTS_KERNELSHAPE_H

#include "kernelskill/Analysis/LaunchContext.h"
#include "kernelskill/Analysis/ScheduleCost.h"
#include "kernelskill/Dialect/KS/IR/KSAttrs.h"
#include "kernelskill/Transforms/Contraction.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <optional>
#include <string>

namespace mlir::ks {

/// Gemm, Gemv: a raised contraction. Rows: a raised kernel without one
/// whose forall walks rows in loops that the row-reduction schedule
/// accepts (softmax, the normalizations, row reductions). Transpose: a
/// two-dimensional forall whose one store is contiguous along the other
/// dimension than its loads, which the transpose-tile schedule accepts.
/// Stencil: a 2-D or 3-D forall that reads a buffer it does not write at
/// two or more points along its outermost dimension (in[i-1][j],
/// in[i+1][j]), which the register window accepts. Other raised kernels
/// without a contraction have no class the rules know (Other).
enum class ProblemClass { Gemm, Gemv, Rows, Transpose, Stencil, Other };

/// Along which iteration dimensions an operand's memory is contiguous.
enum class OperandLayout { AlongReduction, AlongOutput, None };

struct KernelShape {
  gpu::GPUFuncOp kernel;
  std::optional<ContractionProblem> problem;
  /// A raised kernel without a contraction: its top-level forall.
  scf::ForallOp forall;
  /// Its number of points (iterations) at the workload; 0 when unknown.
  int64_t forallPoints = 0;
  /// Rows: the rows, their length and passes, at the workload.
  RowSizes rows;
  /// Transpose: the space's extents at the workload.
  TileSizes tile;
  /// Stencil: the space's extents at the workload.
  StencilSizes stencil;
  /// Why the kernel has no contraction the families can schedule.
  std::string whyNot;
  ProblemClass cls = ProblemClass::Gemm;
  OperandLayout lhs = OperandLayout::None, rhs = OperandLayout::None;
  ContractionSizes sizes;
  /// Where the sizes came from ("#ks.workload of launch_gemm", "assumed").
  std::string sizesFrom;
  /// The largest headroom of each finding kind in the kernel's diagnosis.
  std::map<FindingKind, double> findings;
};

/// The block of the one-per-thread schedule (every point of the forall a
/// thread) for `shape` on a GPU of `smCount` SMs: 256 threads, halved (down
/// to 32) while the grid would leave SMs without a block. A kernel of 8192
/// points ran 0.63x its source as 32 blocks of 256 on the H100's 132 SMs,
/// the source's 64 blocks of 128 (bench/results/2026-12-07-h100-idioms).
int64_t onePerThreadBlock(const KernelShape &shape, int64_t smCount);

/// Whether the rules and the driver search schedules for the kernel: a
/// contraction, rows, a transpose, a stencil.
bool isSearchable(const KernelShape &shape);

/// Reads `kernel` (a raised gpu.func). `workload` overrides sizes by
/// argument name, as the profiler's option does.
KernelShape readKernelShape(gpu::GPUFuncOp kernel, ModuleOp module,
                            const llvm::StringMap<int64_t> &workload);

/// The value of an index computed from the kernel's arguments and
/// constants (casts, + - * / and ceildiv), with the launch's scalars.
std::optional<int64_t> evaluateIndex(Value v, const LaunchContext &context);

const char *toString(ProblemClass cls);
const char *toString(OperandLayout layout);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_KERNELSHAPE_H
