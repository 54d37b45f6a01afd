//===- Stats.h - Summaries of repeated timings ------------------*- C++ -*-===//
#ifndef KERNELSKILL_RUNTIME_STATS_H
#define KERNELSKILL_RUNTIME_STATS_H

#include <cstddef>
#include <vector>

namespace mlir::ks::runtime {

struct TimingSummary {
  size_t count = 0;
  double median = 0, min = 0, max = 0, mean = 0, p90 = 0;
  /// Median absolute deviation over the median: the run's noise.
  double relativeSpread = 0;
};

/// Summarizes `samples` (any unit). Percentiles use linear interpolation
/// between order statistics (as numpy's default). Empty input gives zeros.
TimingSummary summarize(std::vector<double> samples);

/// The q-quantile (0 <= q <= 1) of sorted samples, interpolated.
double quantile(const std::vector<double> &sorted, double q);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_STATS_H
