//===- Counters.h - Hardware counters of one kernel launch ------*- C++ -*-===//
//
// Collects hardware counters (DRAM traffic, throughput, occupancy, coalescing,
// bank conflicts, branch uniformity) for one kernel launch through the CUPTI
// Range Profiler API of CUDA 12.6+ (auto range, kernel replay: CUPTI replays
// the kernel once per pass, saving and restoring device memory in between).
//
// libcupti is loaded with dlopen at the first call, so programs using this
// start on machines without it; there, and wherever profiling is not allowed
// (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) or the chip is not supported, the
// result says why instead of holding counters.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_COUNTERS_H
#define KERNELSKILL_RUNTIME_COUNTERS_H

#include "kernelskill/Runtime/Results.h"

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// The metrics collected (raw CUPTI/Perfworks names).
const std::vector<std::string> &defaultCounterMetrics();

/// Profiles `launch` (which enqueues exactly one kernel launch on the default
/// stream of the current context and returns its cudaError_t) on the current
/// CUDA device, with kernel replay and one range per launch. `launch` may be
/// called more than once (once per Start/Stop round CUPTI asks for). Never
/// aborts: any failure (CUPTI missing, not permitted, unsupported chip, a
/// failing launch) gives available=false with the reason.
CounterResult collectCounters(const std::function<cudaError_t()> &launch);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_COUNTERS_H
