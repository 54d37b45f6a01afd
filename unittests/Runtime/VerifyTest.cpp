//===- VerifyTest.cpp - One test per verification rule --------------------===//
//
// Each rule ks-bench applies to a candidate's buffers, on host data, at its
// boundary: a test here fails when the rule is loosened (for the relative L2
// check, by far less than 1000x) or dropped.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Verify.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir::ks::runtime;

namespace {
/// `values` stored as `type`.
std::vector<uint8_t> buffer(ElemType type, const std::vector<double> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeOf(type));
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t *at = bytes.data() + i * sizeOf(type);
    auto put = [&](auto value) { std::memcpy(at, &value, sizeof(value)); };
    switch (type) {
    case ElemType::F16:
      put(floatToHalf(float(values[i])));
      break;
    case ElemType::BF16:
      put(floatToBF16(float(values[i])));
      break;
    case ElemType::F32:
      put(float(values[i]));
      break;
    case ElemType::F64:
      put(values[i]);
      break;
    case ElemType::I32:
      put(int32_t(values[i]));
      break;
    default:
      ADD_FAILURE() << "no test data for " << toString(type);
    }
  }
  return bytes;
}

/// 1000 reference values between 1 and 2 (so each element's scale is like
/// the RMS and no element is an outlier for a uniform relative error).
std::vector<double> reference() {
  std::vector<double> r(1000);
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = 1.0 + double(i % 97) / 97.0;
  return r;
}

/// Every element of `values` scaled by (1 + e).
std::vector<double> scaled(std::vector<double> values, double e) {
  for (double &v : values)
    v *= 1 + e;
  return values;
}

/// The check of `out` against `ref`, both written everywhere.
OutputCheck check(ElemType type, const std::vector<uint8_t> &out, const std::vector<uint8_t> &ref,
                  double tolerance) {
  return verifyOutput(OutputRuns{ref, ref, out, &out}, type, out.size() / sizeOf(type),
                      tolerance);
}

// Rule: ||out - ref|| / ||ref|| <= the output precision's tolerance. A
// uniform relative error of half the tolerance passes, of twice fails.
TEST(Verify, RelativeL2WithinTheTolerancePerPrecision) {
  struct Case {
    ElemType type;
    bool tf32;
    double tolerance;
  } cases[] = {{ElemType::F64, false, 1e-12}, {ElemType::F32, false, 1e-5},
               {ElemType::F32, true, 5e-3},   {ElemType::F16, false, 1e-2},
               {ElemType::BF16, false, 1e-2}};
  std::vector<double> r = reference();
  for (const Case &c : cases) {
    double tolerance = defaultTolerance(c.type, c.tf32);
    EXPECT_EQ(tolerance, c.tolerance) << toString(c.type);
    std::vector<uint8_t> ref = buffer(c.type, r);
    // f16 and bf16 round each element: stay clear of their precision.
    double below = c.type == ElemType::F16 || c.type == ElemType::BF16 ? 0.2 : 0.5;
    OutputCheck good = check(c.type, buffer(c.type, scaled(r, below * tolerance)), ref, tolerance);
    EXPECT_TRUE(good.comparison.pass) << toString(c.type) << ": " << good.comparison.reason;
    EXPECT_LE(good.comparison.relativeL2, tolerance);
    OutputCheck bad = check(c.type, buffer(c.type, scaled(r, 2 * tolerance)), ref, tolerance);
    EXPECT_FALSE(bad.comparison.pass) << toString(c.type) << (c.tf32 ? " (tf32)" : "");
    EXPECT_EQ(bad.comparison.outlierCount, 0u) << "the L2 rule alone must reject it";
    EXPECT_NE(bad.comparison.reason.find("relative L2 error"), std::string::npos)
        << bad.comparison.reason;
    EXPECT_EQ(bad.tolerance, tolerance);
  }
}

// Rule: integers are exact (tolerance 0): one element off by one fails.
TEST(Verify, IntegersAreExact) {
  EXPECT_EQ(defaultTolerance(ElemType::I32), 0);
  std::vector<double> r = {1, 2, 3, 4};
  std::vector<double> o = {1, 2, 3, 5};
  EXPECT_TRUE(check(ElemType::I32, buffer(ElemType::I32, r), buffer(ElemType::I32, r), 0)
                  .comparison.pass);
  EXPECT_FALSE(check(ElemType::I32, buffer(ElemType::I32, o), buffer(ElemType::I32, r), 0)
                   .comparison.pass);
}

// Rule: every element within 10 x tolerance x (|ref| + RMS(ref)): one wrong
// element in 10^5 fails even though the norm hides it.
TEST(Verify, EveryElementWithinTenTimesTheToleranceOfItsScale) {
  std::vector<double> r(100000, 1.0);
  double tolerance = 1e-5, limit = 10 * tolerance * (1.0 + 1.0);
  std::vector<double> o = r;
  o[777] += 1.5 * limit;
  OutputCheck c = check(ElemType::F64, buffer(ElemType::F64, o), buffer(ElemType::F64, r),
                        tolerance);
  EXPECT_LT(c.comparison.relativeL2, tolerance);
  EXPECT_FALSE(c.comparison.pass);
  EXPECT_EQ(c.comparison.outlierCount, 1u);
  EXPECT_EQ(c.comparison.firstBad, 777u);
  o[777] = r[777] + 0.5 * limit;
  EXPECT_TRUE(check(ElemType::F64, buffer(ElemType::F64, o), buffer(ElemType::F64, r), tolerance)
                  .comparison.pass);
}

// Rule: NaN or Inf must match the reference exactly, whatever the tolerance.
TEST(Verify, NonFiniteValuesMustMatch) {
  std::vector<double> r = {1, NAN, INFINITY, -INFINITY};
  std::vector<uint8_t> ref = buffer(ElemType::F32, r);
  EXPECT_TRUE(check(ElemType::F32, ref, ref, 1e-5).comparison.pass);
  for (size_t i = 0; i < r.size(); ++i) {
    std::vector<double> o = r;
    o[i] = i == 0 ? NAN : i == 1 ? 1.0 : -o[i];
    OutputCheck c = check(ElemType::F32, buffer(ElemType::F32, o), ref, 1e9);
    EXPECT_FALSE(c.comparison.pass) << "element " << i;
    EXPECT_EQ(c.comparison.nanCount, 1u);
    EXPECT_EQ(c.comparison.firstBad, i);
  }
}

// Rule: an element the candidate never wrote (it holds both poisons) fails,
// whatever the tolerance; one the reference never wrote is not compared.
TEST(Verify, UnwrittenElements) {
  const ElemType t = ElemType::F32;
  std::vector<uint8_t> written = buffer(t, {1, 2, 3, 4});
  std::vector<uint8_t> poisonA = written, poisonB = written;
  std::memset(&poisonA[2 * 4], kPoisonA, 4);
  std::memset(&poisonB[2 * 4], kPoisonB, 4);
  // The candidate skips element 2.
  OutputCheck c = verifyOutput(OutputRuns{written, written, poisonA, &poisonB}, t, 4, 1e9);
  EXPECT_FALSE(c.comparison.pass);
  EXPECT_EQ(c.comparison.unwrittenCount, 1u);
  EXPECT_EQ(c.comparison.firstBad, 2u);
  EXPECT_NE(c.comparison.reason.find("never written"), std::string::npos);
  // The reference skips it too: not compared, the rest passes.
  c = verifyOutput(OutputRuns{poisonA, poisonB, poisonA, &poisonB}, t, 4, 1e-5);
  EXPECT_TRUE(c.comparison.pass) << c.comparison.reason;
  EXPECT_EQ(c.referenceUnwritten, 1u);
  // Only the reference skips it: whatever the candidate wrote is not compared.
  std::vector<uint8_t> other = buffer(t, {1, 2, 99, 4});
  EXPECT_TRUE(verifyOutput(OutputRuns{poisonA, poisonB, other, &other}, t, 4, 1e-5)
                  .comparison.pass);
  // An element holding one poison pattern in one run only was written.
  EXPECT_TRUE(verifyOutput(OutputRuns{poisonA, written, poisonA, &written}, t, 4, 1e-5)
                  .comparison.pass);
  // inout buffers are not poisoned: nothing in them counts as unwritten, and
  // the NaN left in element 2 fails as a value.
  c = verifyOutput(OutputRuns{written, written, poisonA, &poisonB, /*poisoned=*/false}, t, 4, 1e9);
  EXPECT_EQ(c.comparison.unwrittenCount, 0u);
  EXPECT_FALSE(c.comparison.pass);
  // The check after timing runs once: unwritten elements cannot be told.
  c = verifyOutput(OutputRuns{written, written, poisonA, nullptr}, t, 4, 1e9);
  EXPECT_EQ(c.comparison.unwrittenCount, 0u);
}

// Rule: a kernel must not write its `in` buffers.
TEST(Verify, InputsMustBeLeftAsUploaded) {
  std::vector<uint8_t> before = buffer(ElemType::F32, {1, 2, 3});
  EXPECT_FALSE(checkInputUnchanged("A", before, before));
  std::vector<uint8_t> after = before;
  after[5] ^= 1;
  std::optional<std::string> why = checkInputUnchanged("A", before, after);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "the kernel wrote to input buffer 'A'");
}
} // namespace
