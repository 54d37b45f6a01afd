//===- KernelNameTest.cpp - Kernels found by their source name ------------===//

#include "kernelskill/Runtime/KernelName.h"

#include <gtest/gtest.h>

using namespace mlir::ks::runtime;

TEST(KernelName, ItaniumManglingOfAFreeFunction) {
  EXPECT_TRUE(isMangledNameOf("_Z5saxpyifPKfPf", "saxpy"));
  EXPECT_TRUE(isMangledNameOf("_Z3jaciPfS_", "jac"));
  // Another function whose name starts the same, or the same letters of
  // another length, is not it.
  EXPECT_FALSE(isMangledNameOf("_Z6saxpy2ifPKfPf", "saxpy"));
  EXPECT_FALSE(isMangledNameOf("_Z5saxpy", "saxpy")); // no parameter types
  EXPECT_FALSE(isMangledNameOf("saxpy", "saxpy"));
  EXPECT_FALSE(isMangledNameOf("_Z5saxpyv", ""));
}

TEST(KernelName, OneSymbolOrNone) {
  EXPECT_EQ(mangledSymbolOf({"_Z4gemmPKfS0_Pfiii", "_Z10gemm_splitPfi"}, "gemm"),
            "_Z4gemmPKfS0_Pfiii");
  EXPECT_EQ(mangledSymbolOf({"_Z4gemmPKfS0_Pfiii", "_Z4gemmPKdS0_Pdiii"}, "gemm"), "");
  EXPECT_EQ(mangledSymbolOf({"_Z4axpyPf"}, "gemm"), "");
}
