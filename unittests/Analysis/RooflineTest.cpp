//===- RooflineTest.cpp - The time floor and the bound ---------------------===//

#include "kernelskill/Analysis/Roofline.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {
const GPUCapabilities &h200() { return lookupGPU("h200")->caps; }

TEST(Roofline, ComputeBoundGemm) {
  // Naive GEMM 4096^3: 2*4096^3 FLOP over three 64 MiB matrices.
  RooflineInput in;
  in.flops[2] = 2.0 * 4096 * 4096 * 4096;
  in.dramBytes = 3.0 * 4096 * 4096 * 4;
  in.totalWarps = 4096.0 * 4096 / 32;
  Roofline r = computeRoofline(h200(), in);
  EXPECT_EQ(r.bound, Bound::Compute);
  EXPECT_NEAR(r.computeSeconds, in.flops[2] / (h200().fp32TFlops * 1e12), 1e-12);
  EXPECT_DOUBLE_EQ(r.floorSeconds, r.computeSeconds);
  EXPECT_NEAR(r.intensity, 2.0 * 4096 / 12, 1e-9); // 682.67 FLOP/B
  EXPECT_NEAR(r.ridgePoint, h200().fp32TFlops * 1e12 / (h200().dramGBps * 1e9), 1e-9);
  EXPECT_FALSE(r.headroom.has_value());
}

TEST(Roofline, MemoryBoundCopyAndHeadroom) {
  // A 1 GiB copy: read and write, no FLOPs; measured at twice the floor.
  RooflineInput in;
  in.dramBytes = 2.0 * (1 << 30);
  in.totalWarps = 1e6;
  double floor = in.dramBytes / (h200().dramGBps * 1e9);
  in.measuredSeconds = 2 * floor;
  Roofline r = computeRoofline(h200(), in);
  EXPECT_EQ(r.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(r.floorSeconds, floor);
  EXPECT_EQ(r.intensity, 0);
  ASSERT_TRUE(r.headroom.has_value());
  EXPECT_NEAR(*r.headroom, 0.5, 1e-12);
}

TEST(Roofline, HeadroomClampedWhenFasterThanTheFloor) {
  // A measurement below the compulsory floor (e.g. data already in L2).
  RooflineInput in;
  in.dramBytes = 1e9;
  in.totalWarps = 1e6;
  in.measuredSeconds = 1e-6;
  EXPECT_EQ(*computeRoofline(h200(), in).headroom, 0.0);
}

TEST(Roofline, SmallLaunchIsLatencyBound) {
  RooflineInput in;
  in.dramBytes = 1e9;
  in.totalWarps = kMinWarpsPerSM * h200().smCount - 1;
  EXPECT_EQ(computeRoofline(h200(), in).bound, Bound::Latency);
  in.totalWarps += 1;
  EXPECT_EQ(computeRoofline(h200(), in).bound, Bound::Memory);
}

TEST(Roofline, DoublePrecisionUsesTheFp64Rate) {
  RooflineInput in;
  in.flops[3] = 1e12;
  in.totalWarps = 1e6;
  Roofline r = computeRoofline(h200(), in);
  EXPECT_NEAR(r.computeSeconds, 1e12 / (h200().fp64TFlops * 1e12), 1e-12);
  // f16/bf16 scalar math is charged at the fp32 rate.
  RooflineInput half;
  half.flops[0] = 1e12;
  half.totalWarps = 1e6;
  EXPECT_NEAR(computeRoofline(h200(), half).computeSeconds, 1e12 / (h200().fp32TFlops * 1e12),
              1e-12);
}
} // namespace
