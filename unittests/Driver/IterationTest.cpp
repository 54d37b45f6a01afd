//===- IterationTest.cpp - When the search stops at the roofline target ---===//
//
// The driver re-profiles each round's winner against the kernel's roofline
// floor and goes on only while the winner is below target= (a fraction of
// the floor). Unknown floors or times never stop it, and target=0 is off.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Driver/Iteration.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {
RoundDiagnosis round(double ms, double floorMs) {
  RoundDiagnosis r;
  r.round = 2;
  r.candidate = "row_reduction T=32";
  r.ms = ms;
  r.measured = true;
  r.floorMs = floorMs;
  return r;
}

TEST(Iteration, FractionOfTheFloor) {
  EXPECT_DOUBLE_EQ(round(0.1, 0.08).ofFloor(), 0.8);
  EXPECT_NEAR(round(0.1, 0.08).headroom(), 0.2, 1e-12);
  EXPECT_EQ(round(0.1, -1).ofFloor(), -1);
  EXPECT_EQ(round(-1, 0.08).ofFloor(), -1);
  EXPECT_EQ(round(0.1, -1).headroom(), -1);
  // A time under the floor (a floor too high, or noise): no negative headroom.
  EXPECT_EQ(round(0.07, 0.08).headroom(), 0);
}

TEST(Iteration, StopsAtTheTarget) {
  EXPECT_TRUE(targetReached(round(0.1, 0.081), 0.8));
  EXPECT_TRUE(targetReached(round(0.1, 0.09), 0.8));
  EXPECT_FALSE(targetReached(round(0.1, 0.079), 0.8));
  // Faster than the floor by more than kBeyondFloor: a warm-L2 graph replay
  // or overlapped launches, not comparable; up to it, noise around the floor.
  EXPECT_TRUE(targetReached(round(0.1, 0.105), 0.8));
  EXPECT_FALSE(targetReached(round(0.1, 0.12), 0.8));
  // Off, or nothing to compare with: the search goes on.
  EXPECT_FALSE(targetReached(round(0.1, 0.09), 0));
  EXPECT_FALSE(targetReached(round(0.1, -1), 0.8));
  EXPECT_FALSE(targetReached(round(-1, 0.09), 0.8));
}

TEST(Iteration, SaysWhy) {
  std::optional<std::string> why = targetReached(round(0.1, 0.085), 0.8);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("0.85 of the roofline floor"), std::string::npos) << *why;
  EXPECT_NE(why->find("target=0.80"), std::string::npos) << *why;
  EXPECT_EQ(describeRound(round(0.1, 0.085)),
            "round 2: row_reduction T=32, 0.1000 ms measured, 0.85 of the roofline floor "
            "(0.0850 ms), headroom 0.15");
  EXPECT_NE(describeRound(round(0.1, 0.12)).find("not compared with the target"),
            std::string::npos);
  EXPECT_EQ(describeRound(round(0.1, 0.085)).find("not compared"), std::string::npos);
  EXPECT_EQ(describeRound(round(0.1, -1)),
            "round 2: row_reduction T=32, 0.1000 ms measured, no roofline floor known");
}
} // namespace
