//===- ArbiterTest.cpp - What the arbiter reads of proposals and rules ----===//
//
// The arbiter finds the parties of a budget conflict in the claims'
// formulas (the knobs each reads), and the rule table keeps its thresholds
// as data (bounds on the shape) rather than in the conditions' code. The
// conflicts themselves are lit-tested on IR (test/Driver/config_negotiation.mlir).
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Rules.h"
#include "kernelskill/Agents/ScheduleFamily.h"
#include "kernelskill/Driver/Arbiter.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {

TEST(Arbiter, KnobsInAClaimFormula) {
  using V = std::vector<std::string>;
  EXPECT_EQ(knobsInFormula("4*STAGES*BK"), (V{"STAGES", "BK"}));
  // Function names are not knobs; each knob once, in order of appearance.
  EXPECT_EQ(knobsInFormula("min(STAGES-1,1)*(BM*BK+BK*BN)/(32*WM*WN)+24"),
            (V{"STAGES", "BM", "BK", "BN", "WM", "WN"}));
  EXPECT_EQ(knobsInFormula("max (T, 32)"), (V{"T"}));
  EXPECT_EQ(knobsInFormula("24"), V{});
  EXPECT_EQ(knobsInFormula("2*K_1+x2"), (V{"K_1", "x2"}));
}

// The shipped families' register claims name the knobs the compute and
// resource agents own, so a register conflict has both as parties.
TEST(Arbiter, RegisterClaimsNameBothAgentsKnobs) {
  const ScheduleFamily *f = lookupScheduleFamily("outer_product");
  ASSERT_NE(f, nullptr);
  std::vector<std::string> knobs = knobsInFormula(f->registers);
  for (const char *k : {"TM", "TN", "BM", "BN", "WM", "WN", "STAGES"})
    EXPECT_NE(std::find(knobs.begin(), knobs.end(), k), knobs.end()) << k;
}

const Rule &ruleWith(AgentKind agent, RuleCondition condition) {
  for (const Rule &r : agentRules())
    if (r.agent == agent && r.condition == condition)
      return r;
  ADD_FAILURE() << "no rule";
  return agentRules().front();
}

// The rows thresholds are bounds of the rules, not code of the conditions.
TEST(Rules, RowLengthThresholdsAreData) {
  KernelShape s;
  s.cls = ProblemClass::Rows;
  s.rows.contiguous = true;
  const Rule &longRows = ruleWith(AgentKind::Memory, RuleCondition::RowsLong);
  ASSERT_EQ(longRows.bounds.size(), 1u);
  EXPECT_EQ(longRows.bounds[0].quantity, ShapeQuantity::RowLength);
  s.rows.length = 4096;
  EXPECT_TRUE(holds(RuleCondition::RowsLong, s));
  EXPECT_FALSE(applies(longRows, s, 132));
  s.rows.length = 4097;
  EXPECT_TRUE(applies(longRows, s, 132));

  const Rule &late = ruleWith(AgentKind::Memory, RuleCondition::RowsWithLateReads);
  s.rows.prefetchable = 1;
  s.rows.length = 1024;
  EXPECT_TRUE(applies(late, s, 132));
  s.rows.length = 1025;
  EXPECT_FALSE(applies(late, s, 132));
}

// Split-K: fewer 64 x 64 tiles than SMs and a reduction longer than the
// output is wide, both as bounds.
TEST(Rules, SplitKThresholdsAreData) {
  const Rule &split = ruleWith(AgentKind::Resource, RuleCondition::FewOutputTiles);
  KernelShape s;
  s.cls = ProblemClass::Gemm;
  s.sizes.m = 256;
  s.sizes.n = 256;
  s.sizes.k = 65536;
  s.sizes.batch = 1;
  EXPECT_EQ(quantityOf(ShapeQuantity::IdleSmsAt64Tiles, s, 132), 132 - 16);
  EXPECT_TRUE(applies(split, s, 132));
  EXPECT_FALSE(applies(split, s, 16)); // 16 tiles for 16 SMs: none idle
  s.sizes.k = 256;                      // not longer than the output is wide
  EXPECT_FALSE(applies(split, s, 132));
}

} // namespace
