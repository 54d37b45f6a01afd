//===- OnePerThreadBlockTest.cpp - The block of one thread per point ------===//
//
// onePerThreadBlock keeps 256 threads per block unless the grid would
// leave SMs without a block; then it halves the block, down to a warp.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/KernelShape.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {

int64_t blockFor(int64_t points, int64_t smCount) {
  KernelShape shape;
  shape.forallPoints = points;
  return onePerThreadBlock(shape, smCount);
}

TEST(OnePerThreadBlock, LargeSpacesKeep256) {
  EXPECT_EQ(blockFor(1 << 24, 132), 256);
  EXPECT_EQ(blockFor(132 * 256, 132), 256); // exactly one block per SM
}

TEST(OnePerThreadBlock, SmallSpacesReachEverySM) {
  // 8192 points on the H100's 132 SMs: 64 blocks of 128 or 128 of 64 leave
  // SMs idle; 256 blocks of 32 do not.
  EXPECT_EQ(blockFor(8192, 132), 32);
  EXPECT_EQ(blockFor(131 * 256, 132), 128);
  EXPECT_EQ(blockFor(132 * 64, 132), 64);
}

TEST(OnePerThreadBlock, NeverBelowAWarpOrUnknown) {
  EXPECT_EQ(blockFor(10, 132), 32);
  EXPECT_EQ(blockFor(0, 132), 256);   // unknown extent
  EXPECT_EQ(blockFor(8192, 0), 256);  // unknown GPU
}

} // namespace
