//===- BenchInputsTest.cpp - ks-bench's baselines and launch steps --------===//

#include "kernelskill/Runtime/Bench.h"

#include <gtest/gtest.h>

using namespace mlir::ks::runtime;

namespace {
mlir::ks::ScalarValues sizes() { return {{"M", 100}, {"N", 200}, {"K", 300}, {"B", 4}}; }

TEST(BaselineTest, GemmLayoutsAndBatches) {
  std::string error;
  std::optional<Baseline> nn = parseBaseline("sgemm:M,N,K", sizes(), error);
  ASSERT_TRUE(nn) << error;
  EXPECT_EQ(nn->m, 100);
  EXPECT_EQ(nn->n, 200);
  EXPECT_EQ(nn->k, 300);
  EXPECT_EQ(nn->batch, 1);
  EXPECT_FALSE(nn->transA);
  EXPECT_FALSE(nn->transB);
  std::optional<Baseline> nt = parseBaseline("sgemm:M,N,K:nt", sizes(), error);
  ASSERT_TRUE(nt) << error;
  EXPECT_FALSE(nt->transA);
  EXPECT_TRUE(nt->transB);
  std::optional<Baseline> tn = parseBaseline("tf32:2*M,N,K:tn", sizes(), error);
  ASSERT_TRUE(tn) << error;
  EXPECT_EQ(tn->m, 200);
  EXPECT_TRUE(tn->transA);
  EXPECT_FALSE(tn->transB);
  std::optional<Baseline> batched = parseBaseline("sgemm:M,N,K,B", sizes(), error);
  ASSERT_TRUE(batched) << error;
  EXPECT_EQ(batched->batch, 4);
}

TEST(BaselineTest, BadGemmBaselinesSayWhy) {
  std::string error;
  EXPECT_FALSE(parseBaseline("sgemm:M,N,K:xy", sizes(), error));
  EXPECT_NE(error.find("layout 'xy'"), std::string::npos) << error;
  EXPECT_FALSE(parseBaseline("sgemm:M,N", sizes(), error));
  EXPECT_NE(error.find("M,N,K[,BATCH][:LAYOUT]"), std::string::npos) << error;
  EXPECT_FALSE(parseBaseline("sgemm:M,N,K,0", sizes(), error));
  EXPECT_NE(error.find("positive"), std::string::npos) << error;
  EXPECT_FALSE(parseBaseline("cudnn:M", sizes(), error));
  EXPECT_NE(error.find("unknown baseline"), std::string::npos) << error;
}

TEST(LaunchStepsTest, AManifestOfTwoLaunches) {
  // What ks-translate --export-cuda --manifest writes for a split-K
  // schedule: the init kernel, then the main one.
  const char *manifest = R"json([
    {"kernel": "gemm_split_init", "grid": ["ceildivu(M * N, 256)", "1", "1"],
     "block": ["256", "1", "1"], "params": [{"name": "C", "role": "out", "type": "f32"}]},
    {"kernel": "gemm", "grid": ["ceildivu(M, 128) * ceildivu(N, 128)", "K / 100", "1"],
     "block": ["256", "1", "1"], "smem": "1024"}
  ])json";
  std::string error;
  std::optional<std::vector<LaunchStep>> steps = parseLaunchSteps(manifest, sizes(), error);
  ASSERT_TRUE(steps) << error;
  ASSERT_EQ(steps->size(), 2u);
  EXPECT_EQ((*steps)[0].kernel, "gemm_split_init");
  EXPECT_EQ((*steps)[0].grid, (std::array<int64_t, 3>{79, 1, 1}));
  EXPECT_EQ((*steps)[0].block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ((*steps)[1].kernel, "gemm");
  EXPECT_EQ((*steps)[1].grid, (std::array<int64_t, 3>{2, 3, 1}));
  EXPECT_EQ((*steps)[1].smem, 1024);
}

TEST(LaunchStepsTest, LaunchesPassTheirNamedParameters) {
  // Three kernels of a launcher, each with its own arguments (a launch
  // chain): each step passes the spec's parameters it names, in its order.
  const char *manifest = R"json([
    {"kernel": "scale", "grid": ["1"], "block": ["1"],
     "params": [{"name": "x"}, {"name": "t"}, {"name": "n"}]},
    {"kernel": "square", "grid": ["1"], "block": ["1"],
     "params": [{"name": "t"}, {"name": "y"}, {"name": "n"}]}
  ])json";
  std::string error;
  std::optional<std::vector<LaunchStep>> steps = parseLaunchSteps(manifest, sizes(), error);
  ASSERT_TRUE(steps) << error;
  EXPECT_EQ((*steps)[1].params, (std::vector<std::string>{"t", "y", "n"}));
  std::vector<Param> spec;
  ASSERT_TRUE(parseParamList("x:f32[n]:in,t:f32[n]:out,y:f32[n]:out,n:i32", spec, error)) << error;
  EXPECT_EQ(stepArguments((*steps)[0], spec), (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(stepArguments((*steps)[1], spec), (std::vector<size_t>{1, 2, 3}));
  // No names, or a name the spec lacks: all of the spec's, in order.
  LaunchStep plain{"k", {1, 1, 1}, {1, 1, 1}, 0, {}};
  EXPECT_EQ(stepArguments(plain, spec), (std::vector<size_t>{0, 1, 2, 3}));
  plain.params = {"x", "z"};
  EXPECT_EQ(stepArguments(plain, spec), (std::vector<size_t>{0, 1, 2, 3}));
  // Module variables (@taps) are never arguments.
  std::vector<Param> withGlobals;
  ASSERT_TRUE(parseParamList("x:f32[n]:in,@taps:f32[9]:in,y:f32[n]:out,n:i32", withGlobals, error));
  plain.params = {};
  EXPECT_EQ(stepArguments(plain, withGlobals), (std::vector<size_t>{0, 2, 3}));
  EXPECT_FALSE(parseLaunchSteps(R"([{"kernel": "k", "params": [{"role": "in"}]}])", sizes(), error));
  EXPECT_NE(error.find("launch 0: every entry of 'params' needs a 'name'"), std::string::npos) << error;
}

TEST(LaunchStepsTest, ASingleLaunchObject) {
  std::string error;
  std::optional<std::vector<LaunchStep>> steps =
      parseLaunchSteps(R"({"kernel": "k", "grid": [8], "block": [32]})", sizes(), error);
  ASSERT_TRUE(steps) << error;
  ASSERT_EQ(steps->size(), 1u);
  EXPECT_EQ((*steps)[0].grid, (std::array<int64_t, 3>{8, 1, 1}));
}

TEST(LaunchStepsTest, BadManifestsSayWhere) {
  std::string error;
  EXPECT_FALSE(parseLaunchSteps("[", sizes(), error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  EXPECT_FALSE(parseLaunchSteps("[]", sizes(), error));
  EXPECT_NE(error.find("no launch"), std::string::npos) << error;
  EXPECT_FALSE(parseLaunchSteps(R"([{"grid": [1]}])", sizes(), error));
  EXPECT_NE(error.find("launch 0: expected an object with a 'kernel'"), std::string::npos) << error;
  EXPECT_FALSE(parseLaunchSteps(R"([{"kernel": "k"}, {"kernel": "k", "grid": ["Q"]}])", sizes(),
                                error));
  EXPECT_NE(error.find("launch 1: "), std::string::npos) << error;
  EXPECT_NE(error.find("Q"), std::string::npos) << error;
}
} // namespace
