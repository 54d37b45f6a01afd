//===- FormulaTest.cpp - Formulas of a kernel's scalars, workloads --------===//

#include "kernelskill/Support/Formula.h"

#include "gtest/gtest.h"

#include <climits>

using namespace mlir::ks;

namespace {
int64_t eval(const std::string &text, const ScalarValues &scalars = {}) {
  auto result = evaluateFormula(text, scalars);
  EXPECT_TRUE(std::holds_alternative<int64_t>(result))
      << text << ": " << std::get<FormulaError>(result).message;
  return std::holds_alternative<int64_t>(result) ? std::get<int64_t>(result) : -999;
}
std::string errorOf(const std::string &text, const ScalarValues &scalars = {}) {
  auto result = evaluateFormula(text, scalars);
  EXPECT_TRUE(std::holds_alternative<FormulaError>(result)) << text;
  return std::holds_alternative<FormulaError>(result) ? std::get<FormulaError>(result).message
                                                      : "";
}

TEST(Formula, ArithmeticAndPrecedence) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("7 % 4"), 3);
  EXPECT_EQ(eval("-7 % 4"), -3);
  EXPECT_EQ(eval("-3 + 10"), 7);
  EXPECT_EQ(eval("2 - 3 - 4"), -5); // left associative
  EXPECT_EQ(eval("  42  "), 42);
}

TEST(Formula, ScalarsAndFunctions) {
  ScalarValues s = {{"M", 1000}, {"N", 1023}, {"K", 4096}};
  EXPECT_EQ(eval("M*K", s), 4096000);
  EXPECT_EQ(eval("ceildiv(N, 16)", s), 64);
  EXPECT_EQ(eval("ceildiv(M,16)", s), 63);
  EXPECT_EQ(eval("ceildiv(-7, 2)"), -3);
  EXPECT_EQ(eval("floordiv(-7, 2)"), -4);
  EXPECT_EQ(eval("min(M, N) + max(M, N)", s), 2023);
  EXPECT_EQ(eval("2*M*N*K", s), 2LL * 1000 * 1023 * 4096);
  EXPECT_EQ(eval("udiv(N + 15, 16)", s), 64);
}

TEST(Formula, WrapsAroundLikeTheLauncher) {
  // + - * wrap at 64 bits, as arith on index does; trunc(x, W) is the
  // wrap-around of a W-bit add, sub or mul.
  EXPECT_EQ(eval("9223372036854775807 + 1"), INT64_MIN);
  EXPECT_EQ(eval("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(eval("- 9223372036854775808 / 2"), INT64_MIN / 2);
  EXPECT_EQ(eval("-(0 - 9223372036854775807 - 1)"), INT64_MIN);
  EXPECT_EQ(eval("trunc(2147483647 + 1, 32)"), INT32_MIN);
  EXPECT_EQ(eval("trunc(65536 * 65536, 32)"), 0);
  EXPECT_EQ(eval("trunc(N, 8)", {{"N", 300}}), 44);
}

TEST(Formula, UnsignedAndWidthConversions) {
  // An i32 -1 read as unsigned, as arith.extui / index_castui do.
  EXPECT_EQ(eval("zext(-1, 32)"), 4294967295LL);
  EXPECT_EQ(eval("zext(trunc(N, 32), 32)", {{"N", 4294967296LL + 5}}), 5);
  EXPECT_EQ(eval("udiv(-2, 2, 32)"), INT32_MAX);
  EXPECT_EQ(eval("-2 / 2"), -1);
  EXPECT_EQ(eval("udiv(-1, 2)"), INT64_MAX);
  EXPECT_EQ(eval("urem(-1, 10, 32)"), 5);
  EXPECT_EQ(eval("ceildivu(7, 2)"), 4);
  EXPECT_EQ(eval("ceildivu(-1, 2)"), INT64_MIN); // 2^63, in canonical form
  EXPECT_EQ(eval("minu(-1, 5)"), 5);
  EXPECT_EQ(eval("maxu(-1, 5, 32)"), -1);
  EXPECT_EQ(eval("zext(-1, 64)"), -1); // nothing above 64 bits to extend into
}

TEST(Formula, ErrorsNameTheProblemAndColumn) {
  EXPECT_NE(errorOf("M*K", {{"M", 1}}).find("unknown scalar 'K'"), std::string::npos);
  EXPECT_NE(errorOf("M*K", {{"M", 1}}).find("column 3"), std::string::npos);
  EXPECT_NE(errorOf("4/0").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("4%(2-2)").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("udiv(4, 0)").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("udiv(4, 4294967296, 32)").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("ceildiv(4, 0)").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("(0 - 9223372036854775807 - 1) / -1").find("overflows"), std::string::npos);
  EXPECT_NE(errorOf("(1+2").find("expected ')'"), std::string::npos);
  EXPECT_NE(errorOf("1 2").find("unexpected '2'"), std::string::npos);
  EXPECT_NE(errorOf("").find("expected a number"), std::string::npos);
  EXPECT_NE(errorOf("sqrt(4)").find("unknown function 'sqrt'"), std::string::npos);
  EXPECT_NE(errorOf("ceildiv(4)").find("ceildiv takes 2 arguments, not 1"), std::string::npos);
  EXPECT_NE(errorOf("udiv(1, 2, 32, 4)").find("takes 2 or 3 arguments"), std::string::npos);
  EXPECT_NE(errorOf("trunc(5, 65)").find("between 1 and 64"), std::string::npos);
  EXPECT_NE(errorOf("trunc(5)").find("trunc takes 2 arguments"), std::string::npos);
  EXPECT_NE(errorOf("99999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(errorOf("9223372036854775808").find("too large"), std::string::npos);
  EXPECT_NE(errorOf("M*$", {{"M", 1}}).find("expected a number"), std::string::npos);
}

TEST(Formula, WorkloadLists) {
  ScalarValues values;
  std::string error;
  ASSERT_TRUE(parseWorkload("M=4096, N=2*M,K=ceildiv(M,3)", values, error)) << error;
  EXPECT_EQ(values["N"], 8192);
  EXPECT_EQ(values["K"], 1366);
  // The analyses' launch overrides are dotted; empty entries are skipped.
  ASSERT_TRUE(parseWorkload("block.x=128,,grid.y = M / 2,", values, error)) << error;
  EXPECT_EQ(values["block.x"], 128);
  EXPECT_EQ(values["grid.y"], 2048);
  ASSERT_TRUE(parseWorkload("", values, error));
  ASSERT_TRUE(parseWorkload("M=1", values, error));
  EXPECT_EQ(values["M"], 1); // overrides

  EXPECT_FALSE(parseWorkload("M", values, error));
  EXPECT_EQ(error, "workload entry 'M' is not NAME=INTEGER");
  EXPECT_FALSE(parseWorkload("block.=4", values, error));
  EXPECT_FALSE(parseWorkload("1M=4", values, error));
  EXPECT_FALSE(parseWorkload("M=Q", values, error));
  EXPECT_NE(error.find("workload entry 'M=Q' is not NAME=INTEGER"), std::string::npos);
  EXPECT_NE(error.find("unknown scalar 'Q'"), std::string::npos);
  EXPECT_FALSE(parseWorkload("N=big", values, error));
  EXPECT_NE(error.find("workload entry 'N=big' is not NAME=INTEGER"), std::string::npos);
}

TEST(Formula, SplitTopLevel) {
  std::vector<std::string> parts = splitTopLevel("ceildiv(N,16), A[M*K] ,x");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "ceildiv(N,16)");
  EXPECT_EQ(parts[1], "A[M*K]");
  EXPECT_TRUE(isIdentifier("_a1"));
  EXPECT_FALSE(isIdentifier("a.b"));
}
} // namespace
