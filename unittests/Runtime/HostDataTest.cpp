//===- HostDataTest.cpp - Fill, poison, compare ---------------------------===//

#include "kernelskill/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir::ks::runtime;

namespace {
std::vector<uint8_t> floats(const std::vector<float> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(HostData, HalfAndBF16RoundTrip) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 0.099975586f, 6.1035156e-05f, 5.9604645e-08f})
    EXPECT_EQ(halfToFloat(floatToHalf(f)), f) << f;
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(1e6f))));
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  EXPECT_EQ(floatToBF16(1.0f), 0x3F80);
  EXPECT_EQ(bf16ToFloat(floatToBF16(-3.0f)), -3.0f);
  // Round to nearest even: 1 + 2^-8 is halfway between two bf16 values.
  EXPECT_EQ(floatToBF16(1.00390625f), 0x3F80);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBF16(NAN))));
}

TEST(HostData, RandomInputsAreSeededInRangeAndNeverZero) {
  std::vector<uint8_t> a, b, c;
  fillRandom(a, ElemType::F32, 10000, -1, 1, 42);
  fillRandom(b, ElemType::F32, 10000, -1, 1, 42);
  fillRandom(c, ElemType::F32, 10000, -1, 1, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (size_t i = 0; i < 10000; ++i) {
    double v = loadAsDouble(a.data(), ElemType::F32, i);
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    EXPECT_NE(v, 0.0);
  }
  std::vector<uint8_t> h;
  fillRandom(h, ElemType::F16, 10000, -1, 1, 7);
  for (size_t i = 0; i < 10000; ++i)
    EXPECT_NE(loadAsDouble(h.data(), ElemType::F16, i), 0.0);
  std::vector<uint8_t> ints;
  fillRandom(ints, ElemType::I32, 1000, 0, 16, 7);
  for (size_t i = 0; i < 1000; ++i) {
    double v = loadAsDouble(ints.data(), ElemType::I32, i);
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 16);
  }
  EXPECT_NE(seedFor(1, "A"), seedFor(1, "B"));
  EXPECT_NE(seedFor(1, "A"), seedFor(2, "A"));
}

TEST(HostData, CompareMetrics) {
  auto ref = floats({3, 4, 0, 0});
  auto out = floats({3, 4, 0, 0.5f});
  Comparison c = compare(out, ref, {}, ElemType::F32, 4, 1e-5);
  EXPECT_DOUBLE_EQ(c.relativeL2, 0.5 / 5.0); // ||(0,0,0,.5)|| / ||(3,4,0,0)||
  EXPECT_DOUBLE_EQ(c.maxAbs, 0.5);
  EXPECT_FALSE(c.pass);
  EXPECT_NE(c.reason.find("exceeds tolerance"), std::string::npos);
  EXPECT_TRUE(compare(out, ref, {}, ElemType::F32, 4, 0.2).pass);
  EXPECT_TRUE(compare(ref, ref, {}, ElemType::F32, 4, 0).pass);
}

TEST(HostData, NaNAndUnwrittenAlwaysFail) {
  auto ref = floats({1, 2, 3});
  auto withNaN = floats({1, NAN, 3});
  Comparison c = compare(withNaN, ref, {}, ElemType::F32, 3, 1e9);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nanCount, 1u);
  EXPECT_EQ(c.firstBad, 1u);
  std::vector<uint8_t> unwritten = {0, 0, 1};
  Comparison u = compare(ref, ref, unwritten, ElemType::F32, 3, 1e9);
  EXPECT_FALSE(u.pass);
  EXPECT_EQ(u.unwrittenCount, 1u);
  EXPECT_NE(u.reason.find("never written"), std::string::npos);
}

TEST(HostData, AFewWrongElementsCannotHideInTheNorm) {
  // 1M elements, 10 of them off by 13 (3x the RMS): the relative L2 error
  // stays under the f16 tolerance of 1e-2, but each wrong element is far off.
  std::vector<float> r(1000000), o;
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = float((i % 7) + 1);
  o = r;
  for (int i = 0; i < 10; ++i)
    o[i * 1000] += 13.f;
  Comparison c = compare(floats(o), floats(r), {}, ElemType::F32, r.size(), 1e-2);
  EXPECT_LT(c.relativeL2, 1e-2);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.outlierCount, 10u);
  EXPECT_NE(c.reason.find("10 elements differ"), std::string::npos);
}

TEST(HostData, ChunksMergeAsOnePass) {
  // Over three chunks of kChunkElements: counts add up, the first outlier
  // and the first of two equal worst errors are those of a single pass.
  size_t n = 2 * kChunkElements + 5;
  std::vector<float> r(n, 1.f), o(n, 1.f);
  size_t early = kChunkElements + 3, late = 2 * kChunkElements + 1;
  o[early] = o[late] = 5.f; // equal errors in two chunks
  o[7] = 1.5f;              // a smaller one, first
  std::vector<uint8_t> unwritten(n, 0);
  Comparison c = compare(floats(o), floats(r), unwritten, ElemType::F32, n, 1e-5);
  EXPECT_EQ(c.outlierCount, 3u);
  EXPECT_EQ(c.firstBad, early); // the worst error's index
  EXPECT_DOUBLE_EQ(c.maxAbs, 4.0);
  EXPECT_NEAR(c.relativeL2, std::sqrt((0.25 + 16 + 16) / double(n)), 1e-12);
  unwritten[late] = unwritten[kChunkElements + 9] = 1;
  Comparison u = compare(floats(o), floats(r), unwritten, ElemType::F32, n, 1e-5);
  EXPECT_EQ(u.unwrittenCount, 2u);
  EXPECT_EQ(u.firstBad, kChunkElements + 9);
  o[early] = NAN;
  Comparison nan = compare(floats(o), floats(r), unwritten, ElemType::F32, n, 1e-5);
  EXPECT_EQ(nan.nanCount, 1u);
  EXPECT_EQ(nan.firstBad, early); // before the first unwritten element
}

TEST(HostData, NonFiniteReferencesMustBeMatched) {
  auto ref = floats({NAN, INFINITY, 1});
  EXPECT_TRUE(compare(ref, ref, {}, ElemType::F32, 3, 1e-5).pass);
  auto out = floats({0, INFINITY, 1});
  Comparison c = compare(out, ref, {}, ElemType::F32, 3, 1e-5);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.firstBad, 0u);
}

TEST(HostData, PoisonPatterns) {
  // All-ones bytes are a NaN for every float type, so an unwritten float
  // never passes; the second pattern only has to differ from the first.
  std::vector<uint8_t> a(8, kPoisonA);
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::F64})
    EXPECT_TRUE(std::isnan(loadAsDouble(a.data(), t, 0))) << toString(t);
  EXPECT_NE(kPoisonA, kPoisonB);
}

TEST(HostData, Tolerances) {
  EXPECT_DOUBLE_EQ(defaultTolerance(ElemType::F32), 1e-5);
  EXPECT_DOUBLE_EQ(defaultTolerance(ElemType::F32, /*tf32=*/true), 5e-3);
  EXPECT_DOUBLE_EQ(defaultTolerance(ElemType::BF16), 1e-2);
  EXPECT_DOUBLE_EQ(defaultTolerance(ElemType::I32), 0);
}
} // namespace
