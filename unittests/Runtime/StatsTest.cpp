//===- StatsTest.cpp - Timing summaries -----------------------------------===//

#include "kernelskill/Runtime/Stats.h"

#include "gtest/gtest.h"

using namespace mlir::ks::runtime;

namespace {
TEST(Stats, OddAndEvenMedians) {
  EXPECT_DOUBLE_EQ(summarize({3, 1, 2}).median, 2);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
}

TEST(Stats, MinMaxMeanP90) {
  std::vector<double> samples;
  for (int i = 10; i >= 1; --i) // unsorted on purpose
    samples.push_back(i);
  TimingSummary s = summarize(samples);
  EXPECT_EQ(s.count, 10u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_DOUBLE_EQ(s.p90, 9.1); // numpy.percentile(range(1, 11), 90)
}

TEST(Stats, OutlierDoesNotMoveTheMedian) {
  TimingSummary s = summarize({1.0, 1.0, 1.0, 1.0, 100.0});
  EXPECT_DOUBLE_EQ(s.median, 1.0);
  EXPECT_DOUBLE_EQ(s.relativeSpread, 0.0);
  EXPECT_GT(s.mean, 10.0);
}

TEST(Stats, EmptyAndSingle) {
  EXPECT_EQ(summarize({}).count, 0u);
  TimingSummary one = summarize({2.5});
  EXPECT_DOUBLE_EQ(one.median, 2.5);
  EXPECT_DOUBLE_EQ(one.p90, 2.5);
}
} // namespace
