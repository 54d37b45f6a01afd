//===- Occupancy.h - How many blocks of a kernel fit on an SM ---*- C++ -*-===//
//
// The occupancy calculator: resident blocks and warps per SM for a kernel's
// block size, registers per thread and shared memory, and which resource
// limits them — the arithmetic of CUDA's occupancy API (cuda_occupancy.h):
// registers are allocated per warp in units of reg_alloc_unit from each of
// the SM's four sub-partitions, shared memory in units of smem_alloc_unit
// with smem_reserved_per_block added per block.
//
// Pure C++ over GPUCapabilities, so the cost model and the profiler (and the
// unit tests) use it without MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_OCCUPANCY_H
#define KERNELSKILL_ANALYSIS_OCCUPANCY_H

#include "kernelskill/Support/ArchDatabase.h"

#include <cstdint>
#include <string>

namespace mlir::ks {

struct KernelResources {
  int64_t threadsPerBlock = 0;
  int64_t registersPerThread = 0;
  int64_t staticSmemPerBlock = 0;  ///< bytes
  int64_t dynamicSmemPerBlock = 0; ///< bytes
};

enum class OccupancyLimiter { Warps, Blocks, Registers, SharedMemory, None };

struct Occupancy {
  int64_t activeBlocksPerSM = 0;
  int64_t activeWarpsPerSM = 0;
  double occupancy = 0; ///< active warps / max warps per SM
  OccupancyLimiter limiter = OccupancyLimiter::None;
  /// Blocks per SM each resource alone would allow.
  int64_t blocksByWarps = 0, blocksByBlocks = 0, blocksByRegisters = 0, blocksBySharedMemory = 0;
  /// Why no block fits (empty when one does).
  std::string whyNone;
};

/// The occupancy of a kernel with `resources` on a GPU with `caps`.
Occupancy computeOccupancy(const GPUCapabilities &caps, const KernelResources &resources);

const char *toString(OccupancyLimiter limiter);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_OCCUPANCY_H
