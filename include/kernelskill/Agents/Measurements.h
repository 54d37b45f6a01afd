//===- Measurements.h - Measured counters against predictions -*- C++ -*-===//
//
// What ks-bench measured for a kernel (its --json output, or the records of
// `ks-bench db export`), and the comparison of each hardware counter with the
// performance profiler's static prediction of it.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_AGENTS_MEASUREMENTS_H
#define KERNELSKILL_AGENTS_MEASUREMENTS_H

#include "kernelskill/Analysis/KernelProfile.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks {

/// One kernel's measurement: its median time, registers and counters.
struct Measurement {
  std::optional<double> medianMs;
  std::optional<double> registers;
  std::map<std::string, double> metrics;
};

/// The kernels' last passing measurements in FILE, by kernel name.
FailureOr<llvm::StringMap<Measurement>> loadMeasurements(StringRef path, std::string &error);

/// A prediction next to its counter.
struct Comparison {
  std::string metric;
  double predicted = 0, measured = 0;
  bool agrees = true;
  std::string explanation;
};

/// Every counter of `m` that has a prediction in `p`, compared, with a
/// possible cause for each disagreement.
std::vector<Comparison> compareWithCounters(const KernelProfile &p, const Measurement &m);

} // namespace mlir::ks

#endif // KERNELSKILL_AGENTS_MEASUREMENTS_H
