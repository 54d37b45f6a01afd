//===- ResultsTest.cpp - ks-bench's results: write, read back -------------===//

#include "kernelskill/Runtime/Results.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include "gtest/gtest.h"

using namespace mlir::ks::runtime;
namespace keys = mlir::ks::bench_results;

namespace {
/// A record with every field set to something other than its default.
VariantResult fullResult() {
  VariantResult r;
  r.name = "tiled";
  r.path = "/tmp/tiled.ptx";
  r.kernel = "gemm";
  r.status = keys::kStatusFail;
  r.error = "verification failed";
  r.device = DeviceInfo{0, "NVIDIA H200", "sm_90", 132, 62914560, "13.0", "13.0"};
  r.attributes = KernelAttributes{40, 8192, 16, 1024};
  OutputCheck c;
  c.comparison.count = 1000;
  c.comparison.relativeL2 = 0.25;
  c.comparison.maxAbs = 3.5;
  c.comparison.nanCount = 2;
  c.comparison.outlierCount = 3;
  c.comparison.unwrittenCount = 4;
  c.comparison.pass = false;
  c.comparison.reason = "4 of 1000 elements never written (first at index 9)";
  c.tolerance = 1e-5;
  c.referenceUnwritten = 5;
  r.verification["C"] = c;
  OutputCheck input;
  input.comparison.reason = "the kernel wrote to input buffer 'A'";
  r.verification["A"] = input;
  r.verificationAfterTiming = true;
  r.timing = TimingResult{{50, 1.5, 1.25, 2.5, 1.625, 1.75, 0.03}, "events, L2 flushed"};
  r.tflops = 91.5;
  r.gbps = 1200.25;
  r.seconds = {{"reference", 1.5}, {"timing", 0.25}};
  r.referenceReused = true;
  CounterResult counters;
  counters.available = true;
  counters.metrics = {{"dram__bytes_read.sum", 1e9}, {"global_load_sectors_per_request", 4}};
  counters.skippedMetrics = {"smsp__sass_average_branch_targets_threads_uniform.pct"};
  r.counters = counters;
  return r;
}

void expectSame(const VariantResult &a, const VariantResult &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.path, b.path);
  EXPECT_EQ(a.kernel, b.kernel);
  EXPECT_EQ(a.baseline, b.baseline);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  ASSERT_EQ(a.device.has_value(), b.device.has_value());
  if (a.device) {
    EXPECT_EQ(a.device->name, b.device->name);
    EXPECT_EQ(a.device->chip, b.device->chip);
    EXPECT_EQ(a.device->smCount, b.device->smCount);
    EXPECT_EQ(a.device->l2Bytes, b.device->l2Bytes);
    EXPECT_EQ(a.device->driverVersion, b.device->driverVersion);
    EXPECT_EQ(a.device->runtimeVersion, b.device->runtimeVersion);
  }
  ASSERT_EQ(a.attributes.has_value(), b.attributes.has_value());
  if (a.attributes) {
    EXPECT_EQ(a.attributes->registers, b.attributes->registers);
    EXPECT_EQ(a.attributes->staticSmem, b.attributes->staticSmem);
    EXPECT_EQ(a.attributes->localBytes, b.attributes->localBytes);
    EXPECT_EQ(a.attributes->maxThreadsPerBlock, b.attributes->maxThreadsPerBlock);
  }
  ASSERT_EQ(a.verification.size(), b.verification.size());
  for (const auto &[name, check] : a.verification) {
    ASSERT_TRUE(b.verification.count(name)) << name;
    const OutputCheck &other = b.verification.at(name);
    EXPECT_EQ(check.comparison.count, other.comparison.count) << name;
    EXPECT_EQ(check.comparison.relativeL2, other.comparison.relativeL2) << name;
    EXPECT_EQ(check.comparison.maxAbs, other.comparison.maxAbs) << name;
    EXPECT_EQ(check.comparison.nanCount, other.comparison.nanCount) << name;
    EXPECT_EQ(check.comparison.outlierCount, other.comparison.outlierCount) << name;
    EXPECT_EQ(check.comparison.unwrittenCount, other.comparison.unwrittenCount) << name;
    EXPECT_EQ(check.comparison.pass, other.comparison.pass) << name;
    EXPECT_EQ(check.comparison.reason, other.comparison.reason) << name;
    EXPECT_EQ(check.tolerance, other.tolerance) << name;
    EXPECT_EQ(check.referenceUnwritten, other.referenceUnwritten) << name;
  }
  EXPECT_EQ(a.verificationAfterTiming, b.verificationAfterTiming);
  ASSERT_EQ(a.timing.has_value(), b.timing.has_value());
  if (a.timing) {
    const TimingSummary &s = a.timing->summary, &t = b.timing->summary;
    EXPECT_EQ(s.count, t.count);
    EXPECT_EQ(s.median, t.median);
    EXPECT_EQ(s.min, t.min);
    EXPECT_EQ(s.max, t.max);
    EXPECT_EQ(s.mean, t.mean);
    EXPECT_EQ(s.p90, t.p90);
    EXPECT_EQ(s.relativeSpread, t.relativeSpread);
    EXPECT_EQ(a.timing->method, b.timing->method);
  }
  EXPECT_EQ(a.tflops, b.tflops);
  EXPECT_EQ(a.gbps, b.gbps);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.referenceReused, b.referenceReused);
  ASSERT_EQ(a.counters.has_value(), b.counters.has_value());
  if (a.counters) {
    EXPECT_EQ(a.counters->available, b.counters->available);
    EXPECT_EQ(a.counters->unavailableReason, b.counters->unavailableReason);
    EXPECT_EQ(a.counters->metrics, b.counters->metrics);
    EXPECT_EQ(a.counters->skippedMetrics, b.counters->skippedMetrics);
  }
}

VariantResult roundTrip(const VariantResult &r) {
  std::string error;
  // Through text, as the file is.
  nlohmann::json parsed = nlohmann::json::parse(toJSON(r).dump(2));
  std::optional<VariantResult> again = variantResultFromJSON(parsed, error);
  EXPECT_TRUE(again) << error;
  return again ? *again : VariantResult();
}

TEST(Results, EveryFieldRoundTrips) { expectSame(roundTrip(fullResult()), fullResult()); }

TEST(Results, SparseRecordsRoundTrip) {
  // A baseline, a worker that died, counters that were not available.
  VariantResult baseline;
  baseline.name = "cublas-sgemm 4096x4096x4096";
  baseline.baseline = "sgemm";
  baseline.status = keys::kStatusPass;
  baseline.timing = TimingResult{{50, 1.0, 0.9, 1.2, 1.0, 1.1, 0.01}, "events"};
  baseline.tflops = 50;
  expectSame(roundTrip(baseline), baseline);
  VariantResult died;
  died.name = "v";
  died.status = keys::kStatusError;
  died.error = "worker killed by signal 9";
  expectSame(roundTrip(died), died);
  VariantResult noCounters = fullResult();
  noCounters.counters = CounterResult{false, "profiling not permitted", {}, {}};
  expectSame(roundTrip(noCounters), noCounters);
}

TEST(Results, TheKeysAreTheSchemas) {
  // The profiler reads these with llvm::json (Measurements.cpp), by the same
  // names: spot-check the ones it reads.
  nlohmann::json j = toJSON(fullResult());
  EXPECT_EQ(j[keys::kKernel], "gemm");
  EXPECT_EQ(j[keys::kStatus], keys::kStatusFail);
  EXPECT_EQ(j[keys::kTiming][keys::kMedianMs], 1.5);
  EXPECT_EQ(j[keys::kAttributes][keys::kRegisters], 40);
  EXPECT_EQ(j[keys::kCounters][keys::kAvailable], true);
  EXPECT_EQ(j[keys::kCounters][keys::kMetrics]["dram__bytes_read.sum"], 1e9);
}

TEST(Results, WrongTypesAreErrors) {
  std::string error;
  EXPECT_FALSE(variantResultFromJSON(nlohmann::json::array(), error));
  nlohmann::json j = toJSON(fullResult());
  j[keys::kTiming][keys::kMedianMs] = "fast";
  EXPECT_FALSE(variantResultFromJSON(j, error));
  EXPECT_EQ(error, "timing.median_ms: expected a number");
  j = toJSON(fullResult());
  j[keys::kVerification]["C"][keys::kPass] = 1;
  EXPECT_FALSE(variantResultFromJSON(j, error));
  EXPECT_EQ(error, "verification.C.pass: expected true or false");
}
} // namespace
