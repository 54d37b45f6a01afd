//===- NegotiationTest.cpp - The driver's register budget after a spill ---===//
//
// A candidate that ptxas spills lowers the register budget for the rest only
// when ptxas ran out of the registers its block may have; a spill far below
// that is ptxas trading registers for occupancy (seen on a row reduction of
// 256 threads: 8 bytes at 40 registers), and the points after it must still
// be compiled.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Driver/Negotiation.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {
const GPUCapabilities &h200() { return lookupGPU("h200")->caps; }

TEST(Negotiation, RegistersAllowedPerBlock) {
  Budgets budgets;
  EXPECT_EQ(registersAllowed(256, h200(), budgets), 255);  // 65536 / 256 = 256 > 255
  EXPECT_EQ(registersAllowed(512, h200(), budgets), 128);  // the register file
  EXPECT_EQ(registersAllowed(1024, h200(), budgets), 64);
  budgets.maxRegisters = 96;                               // the user's max-registers
  EXPECT_EQ(registersAllowed(256, h200(), budgets), 96);
}

TEST(Negotiation, SpillBelowTheLimitIsPtxasChoice) {
  Budgets budgets;
  EXPECT_FALSE(spilledAtRegisterLimit(40, 256, h200(), budgets));
  EXPECT_FALSE(spilledAtRegisterLimit(32, 128, h200(), budgets));
}

TEST(Negotiation, SpillAtTheLimitLowersTheBudget) {
  Budgets budgets;
  EXPECT_TRUE(spilledAtRegisterLimit(255, 256, h200(), budgets));
  EXPECT_TRUE(spilledAtRegisterLimit(248, 128, h200(), budgets));
  EXPECT_TRUE(spilledAtRegisterLimit(64, 1024, h200(), budgets));
  budgets.maxRegisters = 64;
  EXPECT_TRUE(spilledAtRegisterLimit(64, 256, h200(), budgets));
}
// The refinement rounds' neighbours: one knob one step away in value (not
// two steps, not two knobs; the space lists values in the agents' order of
// preference, not sorted), the same family, not yet compiled, in rank order.
TEST(Negotiation, KnobNeighboursAreOneStepOfOneKnob) {
  const ScheduleFamily *family = lookupScheduleFamily("outer_product");
  ASSERT_TRUE(family);
  auto point = [&](int64_t bm, int64_t bn) {
    Candidate c;
    c.family = family;
    c.knobs = family->complete({{"BM", bm}, {"BN", bn}});
    return c;
  };
  std::vector<std::pair<std::string, std::vector<int64_t>>> space = {
      {"BM", {128, 256, 32, 64}}, {"BN", {64, 32, 128}}};
  Candidate center = point(64, 64);
  // Rank order: two steps first, then both knobs, then the neighbours.
  std::vector<Candidate> ranked = {point(256, 64), point(128, 128), point(64, 64),
                                   point(128, 64),  point(64, 32),   point(32, 64),
                                   point(64, 128)};
  std::vector<Candidate> evaluated = {center, point(64, 128)};
  std::vector<const Candidate *> found = knobNeighbours(center, ranked, space, evaluated);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0], &ranked[3]); // BM 128
  EXPECT_EQ(found[1], &ranked[4]); // BN 32
  EXPECT_EQ(found[2], &ranked[5]); // BM 32
  // Another family's point is never a neighbour.
  ranked[3].family = lookupScheduleFamily("split_reduction");
  EXPECT_EQ(knobNeighbours(center, ranked, space, evaluated).size(), 2u);
}

// A candidate's status is an enum with its reason; the transcript and the
// tuning database keep the text, which reads back to the same status.
TEST(Negotiation, StatusTextRoundTrips) {
  Candidate c;
  EXPECT_EQ(c.statusText(), "admissible");
  c.reject("ptxas spills 24 bytes");
  EXPECT_EQ(c.statusText(), "rejected: ptxas spills 24 bytes");
  for (const char *text : {"compiled", "chosen", "admissible", "rejected: ptxas spills 8 bytes",
                           "screened out: 1.2500 ms at n=4096 unverified there"}) {
    Candidate d;
    d.setStatusText(text);
    EXPECT_EQ(d.statusText(), text);
  }
  Candidate e;
  e.setStatusText("screened out: 2.0 ms");
  EXPECT_EQ(e.status, CandidateStatus::ScreenedOut);
  EXPECT_EQ(e.why, "2.0 ms");
  e.setStatusText("compiled");
  EXPECT_TRUE(e.isCompiled());
  EXPECT_TRUE(e.why.empty());
  // Text of no known form is a rejection that keeps it.
  e.setStatusText("timeout");
  EXPECT_EQ(e.status, CandidateStatus::Rejected);
  EXPECT_EQ(e.statusText(), "rejected: timeout");
}
} // namespace
