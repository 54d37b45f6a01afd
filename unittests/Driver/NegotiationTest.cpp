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
} // namespace
