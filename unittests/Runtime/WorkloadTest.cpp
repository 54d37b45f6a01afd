//===- WorkloadTest.cpp - Launch specs and workloads ----------------------===//

#include "kernelskill/Runtime/Workload.h"

#include "gtest/gtest.h"

#include <cstdint>

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
  EXPECT_DOUBLE_EQ(params[0].lo, -1.0); // the defaults
  EXPECT_DOUBLE_EQ(params[3].hi, 16.0);

  // A range after the role: the inputs' values (a histogram's full bytes).
  ASSERT_TRUE(parseParamList("in:u8[n]:in:0..256,w:f32[n]:in:-2.5..0.5,n", params, error)) << error;
  EXPECT_DOUBLE_EQ(params[5].lo, 0.0);
  EXPECT_DOUBLE_EQ(params[5].hi, 256.0);
  EXPECT_DOUBLE_EQ(params[6].lo, -2.5);
  EXPECT_DOUBLE_EQ(params[6].hi, 0.5);

  // scratch: a launcher's own intermediate (ks.scratch).
  ASSERT_TRUE(parseParamList("t:f32[n]:scratch", params, error)) << error;
  EXPECT_EQ(params.back().role, Role::Scratch);
  EXPECT_STREQ(toString(Role::Scratch), "scratch");
  EXPECT_EQ(parseRole("scratch"), Role::Scratch);
  EXPECT_FALSE(parseParamList("t:f32[n]:temp", params, error));
  EXPECT_NE(error.find("valid roles: in, out, inout, scratch"), std::string::npos) << error;

  std::array<std::string, 3> dims;
  ASSERT_TRUE(parseDims("ceildiv(N,16),ceildiv(M,16)", dims, error));
  EXPECT_EQ(dims[0], "ceildiv(N,16)");
  EXPECT_EQ(dims[2], "1");
}

// @NAME: a module variable (a __constant__ array), a buffer that is no
// argument; it survives the JSON round trip as "global": true.
TEST(Workload, ModuleVariables) {
  LaunchSpec spec;
  spec.kernel = "conv";
  std::string error;
  ASSERT_TRUE(parseParamList("x:f32[n]:in,@taps:f32[9]:in,n,@seen:i32[1]:inout", spec.params, error))
      << error;
  ASSERT_EQ(spec.params.size(), 4u);
  EXPECT_FALSE(spec.params[0].isGlobal);
  EXPECT_TRUE(spec.params[1].isGlobal);
  EXPECT_EQ(spec.params[1].name, "taps");
  EXPECT_EQ(spec.params[3].role, Role::InOut);
  auto again = parseLaunchSpecJSON(toJSON(spec), error);
  ASSERT_TRUE(again) << error;
  EXPECT_TRUE(again->params[1].isGlobal);
  EXPECT_FALSE(again->params[2].isGlobal);
  std::vector<Param> bad;
  EXPECT_FALSE(parseParamList("@scale:f32", bad, error));
  EXPECT_NE(error.find("a module variable needs TYPE[EXTENT]"), std::string::npos) << error;
}

TEST(Workload, BadInputIsExplained) {
  std::vector<Param> params;
  std::string error;
  EXPECT_FALSE(parseParamList("A:f33[N]", params, error));
  EXPECT_NE(error.find("unknown type 'f33'"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N]:sideways", params, error));
  EXPECT_NE(error.find("unknown role"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N]:in:1..0", params, error));
  EXPECT_NE(error.find("expected a range LO..HI"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N]:in:0..x", params, error));
  EXPECT_NE(error.find("expected a range LO..HI"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N]:in:0..1:more", params, error));
  EXPECT_NE(error.find("too many"), std::string::npos);
  EXPECT_FALSE(parseParamList("n:i32:in", params, error));
  EXPECT_NE(error.find("only buffers"), std::string::npos);
  EXPECT_FALSE(parseParamList("A:f32[N", params, error));
  EXPECT_FALSE(parseParamList("1A:f32[N]", params, error));

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

TEST(Workload, ComputedScalarsTakeTheirValueFormula) {
  // A scalar the launcher computes (`n4 = n / 4`): its "value", unless the
  // workload gives one; buffers' extents and the grid may use it.
  std::string error;
  auto spec = parseLaunchSpecJSON(
      R"js({"kernel": "k", "params": [{"name": "x", "type": "f32", "extent": "4 * n4", "role": "in"},
          {"name": "n4", "type": "i32", "value": "n / 4"}, {"name": "n", "type": "i32"}],
          "grid": ["ceildiv(n4, 128)", "1", "1"], "block": ["128", "1", "1"], "scalars": {"n": 1001}})js",
      error);
  ASSERT_TRUE(spec) << error;
  EXPECT_EQ(spec->params[1].value, "n / 4");
  auto r = resolve(*spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->scalars.at("n4"), 250);
  EXPECT_EQ(r->scalars.at("n"), 1001);
  EXPECT_EQ(r->extents[0], 1000);
  EXPECT_EQ(r->grid[0], 2);
  spec->scalars["n4"] = 3; // the workload wins
  r = resolve(*spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->scalars.at("n4"), 3);
  // Written back as it was read.
  EXPECT_NE(toJSON(*spec).find(R"("value":"n / 4")"), std::string::npos) << toJSON(*spec);
  // Only scalars have a value.
  EXPECT_FALSE(parseLaunchSpecJSON(
      R"({"kernel": "k", "params": [{"name": "x", "type": "f32", "extent": "4", "role": "in", "value": "1"}]})",
      error));
  EXPECT_NE(error.find("only scalars have a 'value'"), std::string::npos);
}

TEST(Workload, ScalarsMustFitTheirType) {
  // The kernel receives the value's low bytes: a value its type cannot hold
  // would launch one size and compute the grid for another.
  std::string error;
  LaunchSpec spec;
  spec.kernel = "k";
  ASSERT_TRUE(parseParamList("A:f32[16]:out,N:i32,U:u32,B:i8", spec.params, error));
  spec.scalars = {{"N", INT32_MAX}, {"U", 4294967295LL}, {"B", -128}};
  EXPECT_TRUE(resolve(spec, error)) << error;
  spec.scalars["N"] = int64_t(INT32_MAX) + 1;
  EXPECT_FALSE(resolve(spec, error));
  EXPECT_NE(error.find("scalar parameter 'N' = 2147483648 does not fit its type i32"),
            std::string::npos);
  spec.scalars["N"] = 1;
  spec.scalars["U"] = -1;
  EXPECT_FALSE(resolve(spec, error));
  EXPECT_NE(error.find("'U' = -1 does not fit its type u32"), std::string::npos);
  spec.scalars["U"] = 1;
  spec.scalars["B"] = 128;
  EXPECT_FALSE(resolve(spec, error));
}

TEST(Workload, LaunchSizesUseTheLaunchersArithmetic) {
  // What ks-emit-launch-spec writes for an i32 launcher: (N + 255) / 256 in
  // 32 bits, then dim3's unsigned conversion.
  std::string error;
  LaunchSpec spec;
  spec.kernel = "k";
  ASSERT_TRUE(parseParamList("A:f32[16]:out,N:i32", spec.params, error));
  spec.grid = {"zext(trunc(N + 255, 32) / 256, 32)", "udiv(N, 65536, 32) + 1", "1"};
  spec.block = {"256", "1", "1"};
  spec.scalars["N"] = 1000;
  auto r = resolve(spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->grid[0], 4);
  // N + 255 overflows i32: the launcher's quotient is negative and dim3
  // reads it as unsigned. The spec computes the same launch, not 8388608.
  spec.scalars["N"] = INT32_MAX;
  r = resolve(spec, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->grid[0], 4294967296LL - 8388607);
}

TEST(Workload, JsonRoundTrip) {
  std::string error;
  auto spec = parseLaunchSpecJSON(kGemm, error);
  ASSERT_TRUE(spec);
  auto again = parseLaunchSpecJSON(toJSON(*spec), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(toJSON(*again), toJSON(*spec));
}

// Every field of the launch spec survives toJSON then parseLaunchSpecJSON.
TEST(Workload, LaunchSpecStructRoundTrip) {
  LaunchSpec spec;
  spec.kernel = "scale";
  std::string error;
  ASSERT_TRUE(parseParamList("x:bf16[zext(n, 32)]:inout,t:i32[64]:in,y:f64[n*2]:out,n:i64,m:u8",
                             spec.params, error));
  spec.params[1].lo = 0;
  spec.params[1].hi = 1000;
  spec.grid = {"minu(ceildivu(n, 256), 1024)", "2", "trunc(n, 32) / 3"};
  spec.block = {"256", "1", "1"};
  spec.smem = "trunc(n * 2, 32)";
  spec.flops = "2*n";
  spec.bytes = "4*n";
  spec.scalars = {{"n", 1000}, {"m", 7}, {"extra", -1}};
  auto again = parseLaunchSpecJSON(toJSON(spec), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(again->kernel, spec.kernel);
  ASSERT_EQ(again->params.size(), spec.params.size());
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const Param &a = again->params[i], &b = spec.params[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.isBuffer, b.isBuffer) << a.name;
    EXPECT_EQ(a.type, b.type) << a.name;
    EXPECT_EQ(a.extent, b.extent) << a.name;
    EXPECT_EQ(a.role, b.role) << a.name;
    EXPECT_EQ(a.lo, b.lo) << a.name;
    EXPECT_EQ(a.hi, b.hi) << a.name;
  }
  EXPECT_EQ(again->grid, spec.grid);
  EXPECT_EQ(again->block, spec.block);
  EXPECT_EQ(again->smem, spec.smem);
  EXPECT_EQ(again->flops, spec.flops);
  EXPECT_EQ(again->bytes, spec.bytes);
  EXPECT_EQ(again->scalars, spec.scalars);
}
} // namespace
