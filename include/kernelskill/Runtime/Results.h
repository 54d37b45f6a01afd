//===- Results.h - ks-bench's results as data and as JSON -------*- C++ -*-===//
//
// What one variant or baseline job reports, as plain structs, and their JSON
// form (the keys are in Support/BenchResultsSchema.h). The workers write
// through toJSON, ks-bench reads its table back through fromJSON, and the
// unit tests check that one is the inverse of the other. Standard library and
// nlohmann/json only.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_RESULTS_H
#define KERNELSKILL_RUNTIME_RESULTS_H

#include "kernelskill/Runtime/Stats.h"
#include "kernelskill/Runtime/Verify.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// What the worker reports about the GPU it ran on.
struct DeviceInfo {
  int ordinal = 0; ///< not written: the index is only meaningful on that machine
  std::string name, chip;
  int smCount = 0;
  int64_t l2Bytes = 0;
  std::string driverVersion, runtimeVersion;
};

/// Hardware counters of one kernel launch.
struct CounterResult {
  bool available = false;
  /// Why there are no counters (when !available), e.g. "profiling not
  /// permitted: ...", "CUPTI library not found ...".
  std::string unavailableReason;
  /// Raw metric name -> value, plus the derived
  /// "global_load_sectors_per_request" and "global_store_sectors_per_request".
  std::map<std::string, double> metrics;
  /// Metrics of defaultCounterMetrics() that the chip or CUPTI rejected.
  std::vector<std::string> skippedMetrics;
};

/// What the driver says of a loaded kernel.
struct KernelAttributes {
  int64_t registers = 0, staticSmem = 0, localBytes = 0, maxThreadsPerBlock = 0;
};

/// A timing summary (milliseconds) and how it was measured.
struct TimingResult {
  TimingSummary summary;
  std::string method;
};

/// One variant's or baseline's record in the results.
struct VariantResult {
  std::string name, path, kernel;
  std::string baseline; ///< the baseline's kind; empty for a variant
  std::string status;   ///< pass, fail or error (BenchResultsSchema.h)
  std::string error;
  std::optional<DeviceInfo> device;
  std::optional<KernelAttributes> attributes;
  /// Per buffer: the check of an output, or of an input the kernel wrote
  /// (then only `comparison.pass` and `comparison.reason` are set).
  std::map<std::string, OutputCheck> verification;
  std::optional<bool> verificationAfterTiming;
  std::optional<TimingResult> timing;
  std::optional<double> tflops, gbps;
  std::optional<CounterResult> counters;
  /// Host wall seconds per phase of the job ("reference", "candidate",
  /// "verification", "timing"; BenchResultsSchema.h).
  std::map<std::string, double> seconds;
  /// Whether the reference's outputs came from an earlier worker.
  std::optional<bool> referenceReused;
};

nlohmann::json toJSON(const DeviceInfo &device);
nlohmann::json toJSON(const CounterResult &counters);
nlohmann::json toJSON(const KernelAttributes &attributes);
nlohmann::json toJSON(const TimingResult &timing);
nlohmann::json toJSON(const OutputCheck &check);
nlohmann::json toJSON(const VariantResult &result);

/// Reads a record written by toJSON (or by an older ks-bench: missing keys
/// keep their defaults); nullopt with `error` when `json` is not an object
/// or a key has the wrong type.
std::optional<VariantResult> variantResultFromJSON(const nlohmann::json &json,
                                                   std::string &error);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_RESULTS_H
