//===- WarpSimulation.h - Run a kernel's index arithmetic per warp -*- C++ -*-===//
//
// The concrete half of the static analyses: the kernel's integer arithmetic and
// structured control flow (scf.if/while/for) are executed for whole warps of a
// few sampled blocks, 32 lanes at a time with an active mask, exactly as the
// SIMT hardware would, with the workload's scalar values. Floating-point values
// and loaded data are not computed ("unknown"). What comes out is what the
// hardware counters measure, predicted: per memory instruction the warp-level
// requests, the 32-byte sectors they touch and the ideal, the shared-memory
// wavefronts (bank conflicts); per branch how often a warp splits; per loop the
// trip counts; FLOPs by precision. Totals are extrapolated from the sampled
// blocks to the grid (interior and edge blocks weighted separately) and, for
// long loops, from the first iterations to the trip count found by running only
// the loop's control slice.
//
// Where the simulation has to guess (a data-dependent address, branch or trip
// count) it says so in `approximations`.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_WARPSIMULATION_H
#define KERNELSKILL_ANALYSIS_WARPSIMULATION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::ks {

/// Grid and block shape of one launch.
struct LaunchShape {
  std::array<int64_t, 3> block = {1, 1, 1};
  std::array<int64_t, 3> grid = {1, 1, 1};
  int64_t threadsPerBlock() const { return block[0] * block[1] * block[2]; }
  int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  int64_t warpsPerBlock() const { return (threadsPerBlock() + 31) / 32; }
};

struct SimulationOptions {
  LaunchShape launch;
  /// Values of the kernel's integer scalar arguments, by argument number.
  llvm::DenseMap<unsigned, int64_t> scalars;
  /// Blocks simulated in full: the first and one per stratum of the grid
  /// (interior, each face, edge and corner of the last row/column/plane).
  unsigned maxSampledBlocks = 9;
  /// Loop iterations executed in full before the rest is extrapolated.
  unsigned recordedIterations = 32;
  /// Upper bound on simulated operations (lane-vector ops).
  uint64_t budget = 20'000'000;
};

/// Where memory lives, from the memref's address space; thread-private
/// arrays (allocas, private attributions) are Local.
enum class MemorySpace { Global, Shared, Local };

/// Per memory instruction, summed over the launch.
struct AccessStats {
  double requests = 0;     ///< warp-level executions with an active lane
  double sectors = 0;      ///< global: 32-byte sectors touched
  double idealSectors = 0; ///< global: sectors if the bytes were contiguous
  double wavefronts = 0;   ///< shared: bank passes
  double idealWavefronts = 0;
  double worstWavefronts = 0; ///< shared: the most passes one request took
  double unknownRequests = 0; ///< requests with a data-dependent address
  /// Reuse within a block (sampled blocks only): distinct threads and warps
  /// per distinct element.
  double threadsPerElement = 0, warpsPerElement = 0;
  double sampledBlocks = 0; ///< blocks the two reuse figures average over
  /// The highest element the sampled blocks touched (-1: none known); a
  /// lower bound on the buffer's extent.
  double maxElement = -1;
  /// Some of the requests were extrapolated from a loop's first iterations,
  /// so maxElement underestimates what the access reaches.
  bool extrapolated = false;
};

/// Per scf.if (branches) or loop (loop exits).
struct BranchStats {
  double executions = 0; ///< warp-level
  double divergent = 0;  ///< executions where the warp's lanes split
  double unknown = 0;    ///< executions with a data-dependent condition
  double iterations = 0; ///< loops: warp-level iterations
  /// Loops: iterations some lanes of the warp sat out (they had left).
  double divergentIterations = 0;
};

struct SimulationResult {
  llvm::MapVector<Operation *, AccessStats> accesses;
  llvm::MapVector<Operation *, BranchStats> branches; ///< scf.if and loops
  /// FLOPs over the launch by element type: f16, bf16, f32, f64.
  std::array<double, 4> flops = {0, 0, 0, 0};
  double specialFunctionOps = 0; ///< exp, log, sqrt, sin, ... (lane-level)
  double warpInstructions = 0;   ///< IR ops executed, warp-level
  std::vector<std::string> approximations;
  double totalFlops() const { return flops[0] + flops[1] + flops[2] + flops[3]; }
};

/// Simulates `kernel` under `options`.
SimulationResult simulateKernel(gpu::GPUFuncOp kernel, const SimulationOptions &options);

/// Bytes one value of `type` occupies in memory (vectors whole; an i1, like
/// a C bool, takes a byte; index takes 8).
int64_t getStorageBytes(Type type);

/// The memory space and bytes per access of a load/store-like op, or
/// nullopt when `op` is not a memory access the simulation tracks.
struct AccessInfo {
  Value memref;
  ValueRange indices;
  MemorySpace space;
  int64_t bytes;     ///< per lane
  bool isLoad, isStore;
};
std::optional<AccessInfo> getAccessInfo(Operation *op);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_WARPSIMULATION_H
