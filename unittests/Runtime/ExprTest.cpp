//===- ExprTest.cpp - Formulas of a kernel's scalars ----------------------===//

#include "kernelskill/Runtime/Expr.h"

#include "gtest/gtest.h"

using namespace mlir::ks::runtime;

namespace {
int64_t eval(const std::string &text, const ScalarValues &scalars = {}) {
  auto result = evaluate(text, scalars);
  EXPECT_TRUE(std::holds_alternative<int64_t>(result))
      << text << ": " << std::get<ExprError>(result).message;
  return std::holds_alternative<int64_t>(result) ? std::get<int64_t>(result) : -999;
}
std::string errorOf(const std::string &text, const ScalarValues &scalars = {}) {
  auto result = evaluate(text, scalars);
  EXPECT_TRUE(std::holds_alternative<ExprError>(result)) << text;
  return std::holds_alternative<ExprError>(result) ? std::get<ExprError>(result).message : "";
}

TEST(Expr, ArithmeticAndPrecedence) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("7 % 4"), 3);
  EXPECT_EQ(eval("-3 + 10"), 7);
  EXPECT_EQ(eval("2 - 3 - 4"), -5); // left associative
  EXPECT_EQ(eval("  42  "), 42);
}

TEST(Expr, ScalarsAndFunctions) {
  ScalarValues s = {{"M", 1000}, {"N", 1023}, {"K", 4096}};
  EXPECT_EQ(eval("M*K", s), 4096000);
  EXPECT_EQ(eval("ceildiv(N, 16)", s), 64);
  EXPECT_EQ(eval("ceildiv(M,16)", s), 63);
  EXPECT_EQ(eval("ceildiv(1024, 16)"), 64);
  EXPECT_EQ(eval("min(M, N) + max(M, N)", s), 2023);
  EXPECT_EQ(eval("2*M*N*K", s), 2LL * 1000 * 1023 * 4096);
}

TEST(Expr, ErrorsNameTheProblemAndColumn) {
  EXPECT_NE(errorOf("M*K", {{"M", 1}}).find("unknown scalar 'K'"), std::string::npos);
  EXPECT_NE(errorOf("M*K", {{"M", 1}}).find("column 3"), std::string::npos);
  EXPECT_NE(errorOf("4/0").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("4%(2-2)").find("division by zero"), std::string::npos);
  EXPECT_NE(errorOf("(1+2").find("expected ')'"), std::string::npos);
  EXPECT_NE(errorOf("1 2").find("unexpected '2'"), std::string::npos);
  EXPECT_NE(errorOf("").find("expected a number"), std::string::npos);
  EXPECT_NE(errorOf("sqrt(4)").find("unknown function 'sqrt'"), std::string::npos);
  EXPECT_NE(errorOf("ceildiv(4, 0)").find("non-positive"), std::string::npos);
  EXPECT_NE(errorOf("ceildiv(4)").find("expected ','"), std::string::npos);
  EXPECT_NE(errorOf("9223372036854775807 + 1").find("overflow"), std::string::npos);
  EXPECT_NE(errorOf("99999999999999999999").find("too large"), std::string::npos);
  EXPECT_NE(errorOf("M*$", {{"M", 1}}).find("expected a number"), std::string::npos);
}
} // namespace
