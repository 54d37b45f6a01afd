//===- WorkloadTest.cpp - Launch specs and workloads ----------------------===//

#include "kernelskill/Runtime/Workload.h"

#include "gtest/gtest.h"

using namespace mlir::ks::runtime;

namespace {
constexpr const char *kGemm = R"json({
  "kernel": "naive_gemm",
  "params": [
    {"name": "A", "type": "f32", "extent": "M*K", "role": "in"},
    {"name": "B", "type": "f32", "extent": "K*N", "role": "in", "range": [0, 2]},
    {"name": "C", "type": "f32", "extent": "M*N", "role": "out"},
    {"name": "M", "type": "i32"}, {"name": "N", "type": "i32"}, {"name": "K", "type": "i32"}
  ],
  "grid": ["ceildiv(N,16)", "ceildiv(M,16)"],
  "block": [16, 16],
  "flops": "2*M*N*K",
  "scalars": {"M": 1000, "N": 1023, "K": 64}
})json";

TEST(Workload, ParsesAndResolvesTheGemmSpec) {
  std::string error;
  auto spec = parseLaunchSpecJSON(kGemm, error);
  ASSERT_TRUE(spec) << error;
  EXPECT_EQ(spec->kernel, "naive_gemm");
  ASSERT_EQ(spec->params.size(), 6u);
  EXPECT_TRUE(spec->params[0].isBuffer);
  EXPECT_EQ(spec->params[2].role, Role::Out);
  EXPECT_DOUBLE_EQ(spec->params[1].hi, 2.0);
  EXPECT_FALSE(spec->params[3].isBuffer);
  auto r = resolve(*spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->grid, (std::array<int64_t, 3>{64, 63, 1}));
  EXPECT_EQ(r->block, (std::array<int64_t, 3>{16, 16, 1}));
  EXPECT_EQ(r->extents[0], 64000);
  EXPECT_EQ(r->extents[2], 1023000);
  EXPECT_DOUBLE_EQ(*r->flops, 2.0 * 1000 * 1023 * 64);
}

TEST(Workload, CommandLineForms) {
  std::vector<Param> params;
  std::string error;
  ASSERT_TRUE(parseParamList("A:f32[M*K]:in,B:bf16[ceildiv(K,2)*N],C:f64[M*N]:inout,M,N:i64",
                             params, error))
      << error;
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(params[1].type, ElemType::BF16);
  EXPECT_EQ(params[1].extent, "ceildiv(K,2)*N");
  EXPECT_EQ(params[1].role, Role::In);
  EXPECT_EQ(params[2].role, Role::InOut);
  EXPECT_EQ(params[3].type, ElemType::I32);
  EXPECT_EQ(params[4].type, ElemType::I64);

  ScalarValues scalars;
  ASSERT_TRUE(parseWorkload("M=4096, N=2*M,K=ceildiv(M,3)", scalars, error)) << error;
  EXPECT_EQ(scalars["N"], 8192);
  EXPECT_EQ(scalars["K"], 1366);

  std::array<std::string, 3> dims;
  ASSERT_TRUE(parseDims("ceildiv(N,16),ceildiv(M,16)", dims, error));
  EXPECT_EQ(dims[0], "ceildiv(N,16)");
  EXPECT_EQ(dims[2], "1");
}

TEST(Workload, BadInputIsExplained) {
  std::vector<Param> params;
  std::string error;
  EXPECT_FALSE(parseParamList("A:f33[N]", params, error));
  EXPECT_NE(error.find("unknown type 'f33'"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N]:sideways", params, error));
  EXPECT_NE(error.find("unknown role"), std::string::npos);
  EXPECT_FALSE(parseParamList("n:i32:in", params, error));
  EXPECT_NE(error.find("only buffers"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N", params, error));
  EXPECT_FALSE(parseParamList("1A:f32[N]", params, error));

  ScalarValues scalars;
  EXPECT_FALSE(parseWorkload("M", scalars, error));
  EXPECT_NE(error.find("NAME=VALUE"), std::string::npos);
  EXPECT_FALSE(parseWorkload("M=Q", scalars, error));
  EXPECT_NE(error.find("unknown scalar 'Q'"), std::string::npos);

  EXPECT_FALSE(parseLaunchSpecJSON("{", error));
  EXPECT_EQ(error, "not valid JSON");
  EXPECT_FALSE(parseLaunchSpecJSON(R"({"kernel": "k", "params": [], "gird": [1]})", error));
  EXPECT_NE(error.find("unknown key 'gird'"), std::string::npos);
  EXPECT_FALSE(parseLaunchSpecJSON(R"({"params": []})", error));
  EXPECT_NE(error.find("'kernel'"), std::string::npos);
  EXPECT_FALSE(parseLaunchSpecJSON(R"({"kernel": "k", "params": [{"name": "x"}]})", error));
  EXPECT_NE(error.find("params[0]"), std::string::npos);
  EXPECT_FALSE(parseLaunchSpecJSON(
      R"({"kernel": "k", "params": [{"name": "A", "type": "f32", "role": "in"}]})", error));
  EXPECT_NE(error.find("buffer 'A' has no extent"), std::string::npos);
}

TEST(Workload, ResolveChecksEverything) {
  std::string error;
  LaunchSpec spec;
  spec.kernel = "k";
  ASSERT_TRUE(parseParamList("A:f32[N]:out,N:i32", spec.params, error));
  spec.grid = {"ceildiv(N,256)", "1", "1"};
  spec.block = {"256", "1", "1"};
  EXPECT_FALSE(resolve(spec, error));
  EXPECT_NE(error.find("scalar parameter 'N' has no value"), std::string::npos);
  spec.scalars["N"] = 1000;
  auto r = resolve(spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->grid[0], 4);
  spec.block = {"2048", "1", "1"};
  EXPECT_FALSE(resolve(spec, error));
  EXPECT_NE(error.find("exceeds 1024"), std::string::npos);
  spec.block = {"0", "1", "1"};
  EXPECT_FALSE(resolve(spec, error));
  spec.block = {"256", "1", "1"};
  spec.params[0].extent = "N-2000";
  EXPECT_FALSE(resolve(spec, error));
  EXPECT_NE(error.find("negative"), std::string::npos);
}

TEST(Workload, JsonRoundTrip) {
  std::string error;
  auto spec = parseLaunchSpecJSON(kGemm, error);
  ASSERT_TRUE(spec);
  auto again = parseLaunchSpecJSON(toJSON(*spec), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(toJSON(*again), toJSON(*spec));
}
} // namespace
