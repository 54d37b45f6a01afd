//===- Occupancy.cpp - How many blocks of a kernel fit on an SM -----------===//

#include "kernelskill/Analysis/Occupancy.h"

#include <algorithm>
#include <limits>

using namespace mlir::ks;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t unit) { return ceilDiv(a, unit) * unit; }
/// Register-file sub-partitions per SM (one per warp scheduler) on every
/// chip of the database (compute capability 7.0 and newer).
constexpr int64_t kSubPartitions = 4;
} // namespace

const char *mlir::ks::toString(OccupancyLimiter limiter) {
  switch (limiter) {
  case OccupancyLimiter::Warps:
    return "warps";
  case OccupancyLimiter::Blocks:
    return "blocks";
  case OccupancyLimiter::Registers:
    return "registers";
  case OccupancyLimiter::SharedMemory:
    return "shared memory";
  case OccupancyLimiter::None:
    return "none";
  }
  return "none";
}

Occupancy mlir::ks::computeOccupancy(const GPUCapabilities &caps, const KernelResources &r) {
  Occupancy o;
  int64_t maxWarpsPerSM = caps.maxThreadsPerSM / caps.warpSize;
  if (r.threadsPerBlock <= 0 || r.threadsPerBlock > caps.maxThreadsPerBlock) {
    o.whyNone = "a block of " + std::to_string(r.threadsPerBlock) + " threads is not launchable (1 to " +
                std::to_string(caps.maxThreadsPerBlock) + ")";
    return o;
  }
  int64_t warpsPerBlock = ceilDiv(r.threadsPerBlock, caps.warpSize);

  o.blocksByWarps = maxWarpsPerSM / warpsPerBlock;
  o.blocksByBlocks = caps.maxBlocksPerSM;

  // Registers: per warp, rounded to the allocation unit, from each
  // sub-partition's share of the register file.
  if (r.registersPerThread > caps.maxRegsPerThread) {
    o.whyNone = std::to_string(r.registersPerThread) + " registers per thread exceed the limit of " +
                std::to_string(caps.maxRegsPerThread);
    return o;
  }
  if (r.registersPerThread > 0) {
    int64_t regsPerWarp = roundUp(r.registersPerThread * caps.warpSize, caps.regAllocUnit);
    int64_t warpsPerSubPartition = (caps.regsPerSM / kSubPartitions) / regsPerWarp;
    o.blocksByRegisters = warpsPerSubPartition * kSubPartitions / warpsPerBlock;
    if (regsPerWarp * warpsPerBlock > caps.regsPerBlock)
      o.blocksByRegisters = 0;
  } else {
    o.blocksByRegisters = std::numeric_limits<int64_t>::max();
  }

  // Shared memory: the block's static and dynamic bytes plus the system's
  // reservation, rounded to the allocation unit.
  int64_t smem = r.staticSmemPerBlock + r.dynamicSmemPerBlock;
  if (r.staticSmemPerBlock > caps.smemPerBlock || smem > caps.smemPerBlockOptin) {
    o.whyNone = std::to_string(smem) + " bytes of shared memory per block exceed the limit of " +
                std::to_string(caps.smemPerBlockOptin);
    return o;
  }
  if (smem > 0) {
    int64_t perBlock = roundUp(smem + caps.smemReservedPerBlock, caps.smemAllocUnit);
    o.blocksBySharedMemory = caps.smemPerSM / perBlock;
  } else {
    o.blocksBySharedMemory = std::numeric_limits<int64_t>::max();
  }

  std::pair<int64_t, OccupancyLimiter> limits[] = {
      {o.blocksByWarps, OccupancyLimiter::Warps},
      {o.blocksByBlocks, OccupancyLimiter::Blocks},
      {o.blocksByRegisters, OccupancyLimiter::Registers},
      {o.blocksBySharedMemory, OccupancyLimiter::SharedMemory}};
  auto tightest = std::min_element(std::begin(limits), std::end(limits),
                                   [](auto &a, auto &b) { return a.first < b.first; });
  o.activeBlocksPerSM = tightest->first;
  o.limiter = tightest->second;
  o.activeWarpsPerSM = o.activeBlocksPerSM * warpsPerBlock;
  o.occupancy = double(o.activeWarpsPerSM) / double(maxWarpsPerSM);
  if (o.activeBlocksPerSM == 0)
    o.whyNone = std::string("no block fits: ") + toString(o.limiter);
  return o;
}
