//===- OccupancyTest.cpp - The occupancy calculator -----------------------===//
//
// Expected values are those of NVIDIA's CUDA Occupancy Calculator for compute
// capability 9.0 (H100/H200) and 8.0 (A100).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Analysis/Occupancy.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {
const GPUCapabilities &h200() { return lookupGPU("h200")->caps; }
const GPUCapabilities &a100() { return lookupGPU("a100")->caps; }

TEST(Occupancy, FullOccupancyLimitedByWarps) {
  Occupancy o = computeOccupancy(h200(), {256, 32, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 8);
  EXPECT_EQ(o.activeWarpsPerSM, 64);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  EXPECT_EQ(o.limiter, OccupancyLimiter::Warps);
}

TEST(Occupancy, RegistersHalveIt) {
  Occupancy o = computeOccupancy(h200(), {256, 64, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 4);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
  EXPECT_EQ(o.limiter, OccupancyLimiter::Registers);
}

TEST(Occupancy, RegisterAllocationGranularity) {
  // 255 registers round up to 8192 per warp: 2 warps per sub-partition.
  Occupancy o = computeOccupancy(h200(), {128, 255, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 2);
  EXPECT_EQ(o.activeWarpsPerSM, 8);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.125);
  // 33 registers cost as much as 40 (1056 -> 1280 per warp): 12 warps per sub-partition.
  Occupancy p = computeOccupancy(h200(), {128, 33, 0, 0});
  EXPECT_EQ(p.activeBlocksPerSM, 12);
  EXPECT_EQ(p.limiter, OccupancyLimiter::Registers);
}

TEST(Occupancy, SharedMemoryWithTheReservation) {
  // (100 KiB + 1 KiB reserved) per block: 2 blocks in 228 KiB.
  Occupancy o = computeOccupancy(h200(), {128, 32, 0, 100 * 1024});
  EXPECT_EQ(o.activeBlocksPerSM, 2);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.125);
  EXPECT_EQ(o.limiter, OccupancyLimiter::SharedMemory);
  // A100: (48 KiB + 1 KiB) per block in 164 KiB: 3 blocks.
  Occupancy a = computeOccupancy(a100(), {128, 32, 48 * 1024, 0});
  EXPECT_EQ(a.activeBlocksPerSM, 3);
  EXPECT_DOUBLE_EQ(a.occupancy, 12.0 / 64.0);
}

TEST(Occupancy, BlockLimit) {
  Occupancy o = computeOccupancy(h200(), {32, 16, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 32);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
  EXPECT_EQ(o.limiter, OccupancyLimiter::Blocks);
}

TEST(Occupancy, A100LargeBlocks) {
  Occupancy o = computeOccupancy(a100(), {1024, 64, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 1);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
}

TEST(Occupancy, Ada1536ThreadsPerSM) {
  Occupancy o = computeOccupancy(lookupGPU("rtx4090")->caps, {256, 32, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 6);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
}

TEST(Occupancy, NothingFitsSaysWhy) {
  EXPECT_NE(computeOccupancy(h200(), {2048, 32, 0, 0}).whyNone.find("not launchable"),
            std::string::npos);
  EXPECT_NE(computeOccupancy(h200(), {128, 256, 0, 0}).whyNone.find("registers per thread"),
            std::string::npos);
  EXPECT_NE(computeOccupancy(h200(), {128, 32, 64 * 1024, 0}).whyNone.find("shared memory"),
            std::string::npos);
  // 1024 threads x 255 registers need 256K registers: more than a block may have.
  Occupancy o = computeOccupancy(h200(), {1024, 255, 0, 0});
  EXPECT_EQ(o.activeBlocksPerSM, 0);
  EXPECT_EQ(o.limiter, OccupancyLimiter::Registers);
  EXPECT_NE(o.whyNone.find("registers"), std::string::npos);
}
} // namespace
