//===- Bench.h - Verify and time kernel variants ----------------*- C++ -*-===//
//
// One "job" verifies and times one kernel variant against the reference (the
// original kernel) on the same seeded inputs, or measures one baseline
// (cuBLAS GEMM, device-to-device copy). Jobs run in worker processes (see
// runIsolated): a kernel that faults leaves its CUDA context unusable, so each
// candidate gets a fresh one, and a crash or a hang is reported as that
// candidate's failure.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_BENCH_H
#define KERNELSKILL_RUNTIME_BENCH_H

#include "kernelskill/Runtime/Workload.h"

#include <nlohmann/json.hpp>

#include <functional>

#include <optional>
#include <string>

namespace mlir::ks::runtime {

struct Variant {
  std::string name;   ///< shown in the table; defaults to the file name
  std::string path;   ///< PTX or cubin
  std::string kernel; ///< kernel name; defaults to the spec's
};

struct BenchOptions {
  int device = 0;
  int warmup = 5;
  int reps = 50;
  bool flushL2 = true;     ///< overwrite a 2x-L2 buffer before every timed run
  bool freshInputs = false; ///< new random inputs before every timed run
  uint64_t seed = 1;
  std::optional<double> tolerance; ///< default: by the output's precision
  bool tf32 = false;               ///< tolerate tf32 rounding (5e-3)
  double graphBelowMs = 0.02;      ///< time shorter kernels by CUDA-graph replay
  double timeoutSeconds = 600;     ///< per worker
  bool isolate = true;
  bool counters = true; ///< collect CUPTI counters for every verified variant
};

/// A baseline measured with the same method in the same run.
struct Baseline {
  std::string kind; ///< sgemm, tf32, hgemm, bgemm, copy
  int64_t m = 0, n = 0, k = 0; ///< GEMM sizes
  int64_t bytes = 0;           ///< copy size
};
/// "sgemm:M,N,K" (names of scalars or numbers), "copy:BYTES" (formula).
std::optional<Baseline> parseBaseline(const std::string &text, const ScalarValues &scalars,
                                      std::string &error);

/// Verifies and times `candidate` against `reference` (may be the same).
/// Never throws; every failure is in the returned JSON's "status"/"error".
nlohmann::json runVariantJob(const LaunchSpec &spec, const ResolvedLaunch &launch,
                             const Variant &reference, const Variant &candidate,
                             const BenchOptions &options);

/// Measures a baseline.
nlohmann::json runBaselineJob(const Baseline &baseline, const BenchOptions &options);

/// Runs `job` in a forked worker process (when options.isolate) with the
/// time limit; a worker that crashes, is killed or times out yields
/// {"status": "error", "error": why}. `label` names the job in messages.
nlohmann::json runIsolated(const std::string &label, const BenchOptions &options,
                           const std::function<nlohmann::json()> &job);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_BENCH_H
