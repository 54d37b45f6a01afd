//===- PtxasReportTest.cpp - Reading ptxas -v ------------------------------===//

#include "kernelskill/Analysis/PtxasReport.h"

#include "gtest/gtest.h"

using namespace mlir::ks;

namespace {
TEST(PtxasReport, Cuda13Entry) {
  // ptxas 13.0 -v on the naive GEMM (no cmem line any more).
  auto f = parsePtxasReport("ptxas info    : 0 bytes gmem\n"
                            "ptxas info    : Compiling entry function 'naive_gemm' for 'sm_90'\n"
                            "ptxas info    : Function properties for naive_gemm\n"
                            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                            "ptxas info    : Used 32 registers, used 0 barriers\n"
                            "ptxas info    : Compile time = 12.131 ms\n");
  ASSERT_EQ(f.size(), 1u);
  const PtxasFunctionInfo &g = f.at("naive_gemm");
  EXPECT_EQ(g.registers, 32);
  EXPECT_EQ(g.barriers, 0);
  EXPECT_EQ(g.stackFrameBytes, 0);
  EXPECT_EQ(g.sharedBytes, 0);
}

TEST(PtxasReport, SpillsSharedMemoryAndSeveralEntries) {
  auto f = parsePtxasReport(
      "ptxas info    : Compiling entry function 'a' for 'sm_80'\n"
      "ptxas info    : Function properties for a\n"
      "    1024 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 4224 bytes smem, 380 bytes cmem[0]\n"
      "ptxas info    : Function properties for helper\n"
      "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_80'\n"
      "ptxas info    : Function properties for b\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 16 registers, 49152 bytes smem\n");
  ASSERT_EQ(f.size(), 2u) << "the device function 'helper' is not an entry";
  EXPECT_EQ(f.at("a").registers, 255);
  EXPECT_EQ(f.at("a").barriers, 1);
  EXPECT_EQ(f.at("a").stackFrameBytes, 1024);
  EXPECT_EQ(f.at("a").spillStoreBytes, 8);
  EXPECT_EQ(f.at("a").spillLoadBytes, 12);
  EXPECT_EQ(f.at("a").sharedBytes, 4224);
  EXPECT_EQ(f.at("a").constantBytes, 380);
  EXPECT_EQ(f.at("b").registers, 16);
  EXPECT_EQ(f.at("b").sharedBytes, 49152);
}

TEST(PtxasReport, NothingToRead) {
  EXPECT_TRUE(parsePtxasReport("").empty());
  EXPECT_TRUE(parsePtxasReport("ptxas warning : something\n").empty());
}
} // namespace
