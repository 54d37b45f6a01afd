//===- ScheduleFamilyTest.cpp - The knob spaces and their claims ----------===//
//
// The claims the proposals carry are formulas; the transforms compute the
// same quantities in C++ (OuterProductSchedule::sharedBytes, threads()).
// These tests keep the two from drifting apart, and check the knob-to-op
// mapping the driver's scripts use.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/Rules.h"
#include "kernelskill/Agents/ScheduleFamily.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {

TEST(ScheduleFamily, OuterProductClaimsMatchTheTransform) {
  const ScheduleFamily *f = lookupScheduleFamily("outer_product");
  ASSERT_NE(f, nullptr);
  for (int64_t bm : {64, 128})
    for (int64_t bk : {8, 16})
      for (int64_t stages : {1, 2, 3})
        for (int64_t kouterA : {0, 1})
          for (int64_t padA : {0, 4}) {
            KnobValues v = f->complete({{"BM", bm}, {"BK", bk}, {"STAGES", stages},
                                        {"KOUTER_A", kouterA}, {"PAD_A", padA}, {"WM", 4}});
            OuterProductSchedule s = toOuterProduct(v);
            EXPECT_EQ(evaluateClaim(f->sharedBytes, v), s.sharedBytes(4))
                << "BM=" << bm << " BK=" << bk << " STAGES=" << stages;
            EXPECT_EQ(evaluateClaim(f->threads, v), s.threads());
          }
}

TEST(ScheduleFamily, SplitReductionClaimsMatchTheTransform) {
  const ScheduleFamily *f = lookupScheduleFamily("split_reduction");
  ASSERT_NE(f, nullptr);
  for (int64_t warpsRed : {1, 4, 16}) {
    KnobValues v = f->complete({{"LANES_OUT", 32}, {"WARPS_OUT", 1}, {"WARPS_RED", warpsRed},
                                {"OUTS", 4}});
    SplitReductionSchedule s = toSplitReduction(v);
    int64_t bytes = s.warpsRed > 1 ? s.warpsRed * s.blockOutputs() * 4 : 0;
    EXPECT_EQ(evaluateClaim(f->sharedBytes, v), bytes);
    EXPECT_EQ(evaluateClaim(f->threads, v), s.threads());
  }
}

TEST(ScheduleFamily, KnobsBecomeTheOpsAttributes) {
  const ScheduleFamily *f = lookupScheduleFamily("outer_product");
  mlir::MLIRContext context;
  std::string attrs = f->opAttributes(&context, {{"BM", 64}, {"LM", 8}, {"ASYNC", 1}, {"STAGES", 3}});
  EXPECT_NE(attrs.find("block_tile = array<i64: 64, 128>"), std::string::npos) << attrs;
  EXPECT_NE(attrs.find("lanes = array<i64: 8, 4>"), std::string::npos) << attrs;
  EXPECT_NE(attrs.find("stages = 3, async_copy"), std::string::npos) << attrs;
  const ScheduleFamily *g = lookupScheduleFamily("split_reduction");
  EXPECT_EQ(g->opAttributes(&context, {{"LANES_OUT", 32}, {"WARPS_RED", 16}, {"WARPS_OUT", 1}}),
            "{lanes = array<i64: 32, 1>, warps = array<i64: 1, 16>, outputs_per_thread = 1, "
            "vector = 1, unroll = 1}");
  EXPECT_EQ(lookupScheduleFamily("tensor_core"), nullptr);
}

// The tuning database keys points by the attributes' text: for every
// family, the text parses back to the attributes the transform op is built
// with (their order aside), and a flag left unset is absent from both.
TEST(ScheduleFamily, AttributeTextIsTheBuiltAttributes) {
  mlir::MLIRContext context;
  mlir::Builder b(&context);
  for (const ScheduleFamily *f : allScheduleFamilies()) {
    std::string text = f->opAttributes(&context, {});
    mlir::Attribute parsed = mlir::parseAttribute(text, &context);
    ASSERT_TRUE(parsed) << f->name.str() << ": " << text;
    EXPECT_EQ(parsed, b.getDictionaryAttr(f->opAttributeList(b, {}))) << f->name.str();
  }
  const ScheduleFamily *rows = lookupScheduleFamily("row_reduction");
  EXPECT_EQ(rows->opAttributes(&context, {{"O", 1}}),
            "{threads_per_row = 32, rows_per_block = 8, vector = 4, unroll = 4, "
            "cached_turns = 8, online = true}");
}

TEST(ScheduleFamily, ComplexityCountsTransforms) {
  const ScheduleFamily *f = lookupScheduleFamily("outer_product");
  EXPECT_EQ(f->complexity({}), 0);
  EXPECT_EQ(f->complexity({{"PAD_A", 4}, {"VEC_A", 4}, {"STAGES", 2}}), 3);
}

TEST(Rules, EveryRuleNamesAFamilyAndItsKnobs) {
  for (const Rule &r : agentRules()) {
    const ScheduleFamily *f = lookupScheduleFamily(r.family);
    ASSERT_NE(f, nullptr) << r.rationale;
    for (auto &[name, values] : r.knobs) {
      EXPECT_FALSE(values.empty()) << name;
      EXPECT_TRUE(llvm::any_of(f->knobs, [&](const Knob &k) { return k.name == name; }))
          << name << " is not a knob of " << r.family;
    }
  }
}

TEST(Rules, SmVersion) {
  EXPECT_EQ(smVersion("sm_90a"), 90);
  EXPECT_EQ(smVersion("sm_75"), 75);
  EXPECT_EQ(smVersion("gfx90a"), 0);
}
} // namespace
