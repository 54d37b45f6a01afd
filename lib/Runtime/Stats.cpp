//===- Stats.cpp - Summaries of repeated timings --------------------------===//

#include "kernelskill/Runtime/Stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::ks::runtime;

double mlir::ks::runtime::quantile(const std::vector<double> &sorted, double q) {
  if (sorted.empty())
    return 0;
  double pos = q * double(sorted.size() - 1);
  size_t lo = size_t(std::floor(pos)), hi = size_t(std::ceil(pos));
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

TimingSummary mlir::ks::runtime::summarize(std::vector<double> samples) {
  TimingSummary s;
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.median = quantile(samples, 0.5);
  s.p90 = quantile(samples, 0.9);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  std::vector<double> deviations;
  for (double x : samples)
    deviations.push_back(std::fabs(x - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.relativeSpread = s.median > 0 ? quantile(deviations, 0.5) / s.median : 0;
  return s;
}
