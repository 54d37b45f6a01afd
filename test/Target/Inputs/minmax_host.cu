// Checks, on the host, the values of the helpers ks-translate --export-cuda
// writes for arith.maximumf/minimumf (included from the exported file).
#include "exported.cu"

#include <cmath>
#include <cstdio>

static int failures = 0;
static void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

int main() {
  const float nan = NAN;
  expect(std::isnan(ks_maximum<float>(nan, 1.0f)), "maximumf(NaN, 1) is NaN");
  expect(std::isnan(ks_maximum<float>(1.0f, nan)), "maximumf(1, NaN) is NaN");
  expect(std::isnan(ks_minimum<float>(nan, 1.0f)), "minimumf(NaN, 1) is NaN");
  expect(std::isnan(ks_minimum<float>(1.0f, nan)), "minimumf(1, NaN) is NaN");
  expect(std::isnan(ks_maximum<double>(2.0, (double)nan)), "maximumf(2, NaN) is NaN in f64");
  expect(std::isnan(ks_minimum<double>((double)nan, 2.0)), "minimumf(NaN, 2) is NaN in f64");
  expect(ks_maximum<float>(1.0f, 2.0f) == 2.0f, "maximumf(1, 2) is 2");
  expect(ks_maximum<float>(-3.0f, -4.0f) == -3.0f, "maximumf(-3, -4) is -3");
  expect(ks_minimum<float>(1.0f, 2.0f) == 1.0f, "minimumf(1, 2) is 1");
  expect(ks_minimum<double>(-3.0, -4.0) == -4.0, "minimumf(-3, -4) is -4");
  expect(!std::signbit(ks_maximum<float>(-0.0f, 0.0f)), "maximumf(-0, +0) is +0");
  expect(!std::signbit(ks_maximum<float>(0.0f, -0.0f)), "maximumf(+0, -0) is +0");
  expect(std::signbit(ks_minimum<float>(-0.0f, 0.0f)), "minimumf(-0, +0) is -0");
  expect(std::signbit(ks_minimum<float>(0.0f, -0.0f)), "minimumf(+0, -0) is -0");
  // The contrast that makes the helpers necessary.
  expect(!std::isnan(fmaxf(nan, 1.0f)), "fmaxf(NaN, 1) is 1");
  return failures == 0 ? 0 : 1;
}
