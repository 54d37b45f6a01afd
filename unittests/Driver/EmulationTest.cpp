//===- EmulationTest.cpp - The static decisions' CPU check ------------------===//

#include "kernelskill/Driver/Emulation.h"

#include <gtest/gtest.h>

using namespace mlir::ks;

TEST(EmulationWorkload, SmallOddAndMonotone) {
  std::map<std::string, int64_t> small =
      emulationWorkload({{"M", 4096}, {"N", 1000}, {"K", 64}, {"b", 16}, {"c", 3}, {"z", 0}});
  EXPECT_EQ(small["M"], 85);
  EXPECT_EQ(small["N"], 69);
  EXPECT_EQ(small["K"], 37);
  EXPECT_EQ(small["b"], 16); // small sizes stay
  EXPECT_EQ(small["c"], 3);
  EXPECT_EQ(small["z"], 0);
  // Monotone, never above the workload, and shrunk sizes odd.
  int64_t last = 0;
  for (int64_t v = 1; v < 100000; v += 1 + v / 7) {
    int64_t s = emulationWorkload({{"v", v}})["v"];
    EXPECT_LE(s, v) << v;
    EXPECT_GE(s, last) << v;
    if (s != v)
      EXPECT_EQ(s % 2, 1) << v;
    last = s;
  }
}

TEST(EmulationParams, BuffersAtTheirExtentScalarsByType) {
  const char *spec = R"js({"params": [
      {"name": "A", "type": "f32", "extent": "M * K", "role": "in"},
      {"name": "C", "type": "f16", "extent": "max(1, M * N)", "role": "out"},
      {"name": "M", "type": "i32"}, {"name": "N", "type": "i32"}, {"name": "K", "type": "i32"}]})js";
  llvm::Expected<std::string> params = emulationParams(spec, {{"M", 5}, {"N", 3}, {"K", 7}});
  ASSERT_TRUE(bool(params)) << llvm::toString(params.takeError());
  EXPECT_EQ(*params, "A:f32[35]:in,C:f16[15]:out,M:i32,N:i32,K:i32");
  // f16 outputs are compared at half precision's tolerance.
  EXPECT_DOUBLE_EQ(emulationTolerance(spec, false), 1e-2);
}

TEST(EmulationParams, Refusals) {
  auto error = [](const char *spec) {
    llvm::Expected<std::string> params = emulationParams(spec, {{"n", 5}});
    EXPECT_FALSE(bool(params));
    return params ? std::string() : llvm::toString(params.takeError());
  };
  EXPECT_NE(error(R"js({"params": [{"name": "x", "type": "f32", "role": "in"}]})js")
                .find("buffer 'x' has no extent"),
            std::string::npos);
  EXPECT_NE(error(R"js({"params": [{"name": "x", "type": "f32", "extent": "m", "role": "in"}]})js")
                .find("the extent of 'x' (m) does not evaluate"),
            std::string::npos);
  EXPECT_NE(error(R"js({"params": [{"name": "p", "type": "ptr"}]})js")
                .find("the emulator does not know"),
            std::string::npos);
}

TEST(EmulationTolerance, F32AndTF32) {
  const char *spec = R"js({"params": [{"name": "y", "type": "f32", "extent": "n", "role": "out"}]})js";
  EXPECT_DOUBLE_EQ(emulationTolerance(spec, false), 1e-5);
  EXPECT_DOUBLE_EQ(emulationTolerance(spec, true), 5e-3);
}
