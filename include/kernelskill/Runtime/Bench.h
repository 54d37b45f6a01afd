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

#include "kernelskill/Runtime/SharedRun.h"
#include "kernelskill/Runtime/Workload.h"

#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// One launch of a variant's program: a kernel of its module with its own
/// grid, block and dynamic shared memory. A step takes the spec's
/// parameters (a schedule that needs a second kernel, such as the zero fill
/// before a split reduction, gives it the same signature), or, where its
/// manifest names them, those of the spec's parameters in that order (a
/// launcher that runs several kernels with different arguments).
struct LaunchStep {
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t smem = 0;
  /// The spec's parameters this launch passes, by name; empty: all of them.
  std::vector<std::string> params;
};

/// The indices into `specParams` of the step's arguments: its named
/// parameters, or all of the spec's (but its module variables, which are no
/// arguments) in order when it names none, names the
/// spec's own list, or names one the spec lacks (an older manifest whose
/// kernel names differ from the spec's; the signature check then decides).
std::vector<size_t> stepArguments(const LaunchStep &step, const std::vector<Param> &specParams);

struct Variant {
  std::string name;   ///< shown in the table; defaults to the file name
  std::string path;   ///< PTX or cubin
  std::string kernel; ///< kernel name; defaults to the spec's
  /// The launches, in order, when they differ from one launch of `kernel`
  /// with the spec's sizes (a scheduled kernel runs on its own grid).
  std::vector<LaunchStep> steps;
};

/// The launches a manifest describes (ks-translate --export-cuda
/// --manifest, ks-emit-launch-spec: one launch object or an array of them),
/// their sizes evaluated with `scalars`, and the names of the parameters
/// each launch passes.
std::optional<std::vector<LaunchStep>> parseLaunchSteps(const std::string &json,
                                                        const ScalarValues &scalars,
                                                        std::string &error);

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
  /// Time without verifying: no reference run, no poisoned runs, no checks
  /// (status "timed"). The inputs are uploaded and the outputs poisoned once.
  bool timeOnly = false;
  /// Concurrent launches per timed sample (--streams): each on its own
  /// stream with its own copy of the buffers; the sample is the wave's time
  /// over their number, the time per launch in the steady state that many
  /// independent launches reach (objective=throughput). 1: one launch alone.
  int streams = 1;
  /// --energy S: after timing, the energy of a launch over at least S
  /// seconds of back-to-back launches (Energy.h; objective=energy). 0: none.
  double energySeconds = 0;
};

/// A baseline measured with the same method in the same run.
struct Baseline {
  std::string kind; ///< sgemm, tf32, hgemm, bgemm, copy
  int64_t m = 0, n = 0, k = 0; ///< GEMM sizes
  int64_t batch = 1;           ///< strided batched GEMM when > 1
  bool transA = false, transB = false; ///< row-major A stored K x M, B stored N x K
  int64_t bytes = 0;           ///< copy size
};
/// "sgemm:M,N,K[,BATCH][:LAYOUT]" (formulas of the scalars; LAYOUT nn, nt,
/// tn or tt: which of the row-major A and B are stored transposed),
/// "copy:BYTES" (formula).
std::optional<Baseline> parseBaseline(const std::string &text, const ScalarValues &scalars,
                                      std::string &error);

/// Verifies and times `candidate` against `reference` (may be the same), on
/// `shared`'s inputs. Never throws; every failure is in the returned JSON's
/// "status"/"error".
nlohmann::json runVariantJob(const LaunchSpec &spec, const ResolvedLaunch &launch,
                             const Variant &reference, const Variant &candidate,
                             const BenchOptions &options, SharedRun &shared);

/// Measures a baseline.
nlohmann::json runBaselineJob(const Baseline &baseline, const BenchOptions &options);

/// Runs `job` in a forked worker process (when options.isolate) with the
/// time limit; a worker that crashes, is killed or times out yields
/// {"status": "error", "error": why}. `label` names the job in messages.
nlohmann::json runIsolated(const std::string &label, const BenchOptions &options,
                           const std::function<nlohmann::json()> &job);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_BENCH_H
