//===- IntegerArithTest.cpp - Fixed-width integer arithmetic --------------===//
//
// The edges where the analyses and the runtime used to disagree: wrap-around,
// unsigned division of values with the top bit set, truncation.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Support/IntegerArith.h"

#include "gtest/gtest.h"

#include <climits>

using namespace mlir::ks;

namespace {
TEST(IntegerArith, CanonicalForm) {
  EXPECT_EQ(normalizeInteger(0xFFFFFFFFLL, 32), -1);
  EXPECT_EQ(normalizeInteger(0x80000000LL, 32), INT32_MIN);
  EXPECT_EQ(normalizeInteger(0x17FFFFFFFLL, 32), INT32_MAX); // trunci drops the high bits
  EXPECT_EQ(normalizeInteger(1, 1), -1);                     // i1 true
  EXPECT_EQ(normalizeInteger(-5, 64), -5);
  EXPECT_EQ(asUnsignedInteger(-1, 32), 0xFFFFFFFFu);
  EXPECT_EQ(asUnsignedInteger(-1, 8), 0xFFu);
  EXPECT_EQ(asUnsignedInteger(-1, 64), UINT64_MAX);
}

TEST(IntegerArith, AddSubMulWrapAtTheWidth) {
  EXPECT_EQ(addWrap(INT32_MAX, 1, 32), INT32_MIN);
  EXPECT_EQ(subWrap(INT32_MIN, 1, 32), INT32_MAX);
  EXPECT_EQ(mulWrap(65536, 65536, 32), 0);
  EXPECT_EQ(mulWrap(65536, 65536), int64_t(1) << 32);
  EXPECT_EQ(addWrap(INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(mulWrap(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(negWrap(INT64_MIN), INT64_MIN);
  EXPECT_EQ(negWrap(INT8_MIN, 8), INT8_MIN);
  EXPECT_EQ(addWrap(127, 1, 8), -128);
}

TEST(IntegerArith, SignedDivisionTruncatesTowardZero) {
  EXPECT_EQ(divS(7, 2), 3);
  EXPECT_EQ(divS(-7, 2), -3);
  EXPECT_EQ(remS(-7, 2), -1); // the dividend's sign, as C
  EXPECT_EQ(remS(7, -2), 1);
  EXPECT_EQ(ceilDivS(7, 2), 4);
  EXPECT_EQ(ceilDivS(-7, 2), -3);
  EXPECT_EQ(ceilDivS(-7, -2), 4);
  EXPECT_EQ(ceilDivS(6, 2), 3);
  EXPECT_EQ(floorDivS(-7, 2), -4);
  EXPECT_EQ(floorDivS(7, 2), 3);
  EXPECT_EQ(floorDivS(7, -2), -4);
}

TEST(IntegerArith, UndefinedDivisionsAreUnknown) {
  EXPECT_FALSE(divS(1, 0));
  EXPECT_FALSE(remS(1, 0));
  EXPECT_FALSE(divU(1, 0));
  EXPECT_FALSE(remU(1, 0, 32));
  EXPECT_FALSE(ceilDivU(1, 0));
  EXPECT_FALSE(divS(INT64_MIN, -1));
  EXPECT_FALSE(remS(INT64_MIN, -1));
  EXPECT_FALSE(ceilDivS(INT64_MIN, -1));
  EXPECT_FALSE(divS(INT32_MIN, -1, 32)); // at every width, not only 64 bits
  EXPECT_EQ(divS(INT32_MIN, -1, 64), int64_t(1) << 31);
  EXPECT_FALSE(divU(5, int64_t(1) << 32, 32)); // the divisor's low 32 bits are 0
}

TEST(IntegerArith, UnsignedDivisionReadsTheTopBitAsValue) {
  // -2 as u32 is 4294967294: divided by 2 that is 2147483647, not -1.
  EXPECT_EQ(divU(-2, 2, 32), INT32_MAX);
  EXPECT_EQ(divS(-2, 2, 32), -1);
  EXPECT_EQ(divU(-1, 1, 32), -1); // 0xFFFFFFFF, in canonical form
  EXPECT_EQ(divU(-1, 2), INT64_MAX);
  EXPECT_EQ(remU(-1, 10, 32), 5); // 4294967295 % 10
  EXPECT_EQ(remU(-1, 10), int64_t(UINT64_MAX % 10));
  EXPECT_EQ(ceilDivU(-1, 2), int64_t(uint64_t(1) << 63)); // no overflow in a + b - 1
  EXPECT_EQ(ceilDivU(7, 2, 32), 4);
  EXPECT_EQ(minU(-1, 5, 32), 5);
  EXPECT_EQ(maxU(-1, 5, 32), -1);
  EXPECT_EQ(maxU(0x1FFFFFFFFLL, 5, 32), -1); // canonical at 32 bits
}
} // namespace
