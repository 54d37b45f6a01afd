//===- Measure.h - Measuring candidates on the local GPU --------*- C++ -*-===//
//
// Step 4 of the agent driver with measure=cuda (docs/Agents.md): the
// candidates' PTX is run by ks-bench, a process of its own that runs every
// variant in a forked worker with its own CUDA context (lib/Runtime's
// isolation: a faulting or hanging candidate kills its worker, not the
// compiler), verifies each against the lifted original on seeded random
// inputs with poisoned outputs, and times it. The driver reads ks-bench's
// JSON results (Support/BenchResultsSchema.h).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_MEASURE_H
#define KERNELSKILL_DRIVER_MEASURE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::ks {

/// A variant of one ks-bench run: its PTX and, for a scheduled kernel, the
/// manifest of its launches (grid, block, shared memory, an init kernel).
struct BenchVariant {
  std::string name, ptxPath, manifestPath;
};

/// One ks-bench run. The first variant is the reference every other one is
/// verified against; it runs with the spec's launch.
struct BenchJob {
  std::string bench;  ///< the ks-bench executable
  std::string kernel; ///< the kernel's name in every PTX file
  std::string specPath;
  std::vector<BenchVariant> variants;
  /// The reference when it is not to be measured (--reference; a screening
  /// run): else the first variant is.
  std::optional<BenchVariant> reference;
  std::string workload; ///< NAME=VALUE,... (--workload)
  int reps = 10, warmup = 2;
  int timeoutSeconds = 120; ///< per worker
  bool tf32Tolerance = false; ///< verify at ks-bench's --tf32 tolerance
  /// Time without verifying (--time-only): outcomes "timed", for screening
  /// candidates already verified at another workload.
  bool timeOnly = false;
  /// Concurrent launches per timed sample (--streams; objective=throughput):
  /// the times are per launch in that steady state. 1: a launch alone.
  int streams = 1;
  /// Seconds of back-to-back launches whose energy ks-bench reads per
  /// variant (--energy; objective=energy). 0: none.
  double energySeconds = 0;
  std::string jsonPath, logPath;
};

/// The concurrent launches objective=throughput is timed with: enough to
/// fill an H100 or H200 with the small grids the objective is for (the
/// prototype's harness saw the per-launch time settle by 8 streams:
/// bench/results/2026-12-04-h200-objective).
constexpr int kThroughputStreams = 8;
/// objective=energy: the seconds of launches each energy reading spans (the
/// counter steps by a millijoule every few to tens of milliseconds).
constexpr double kEnergySeconds = 0.5;

/// What ks-bench said of one variant.
struct BenchOutcome {
  std::string status; ///< "pass", "timed" (--time-only: not verified), "fail"
                      ///< (verification) or "error" (launch, load, timeout)
  std::string reason; ///< why it failed; empty on "pass" and "timed"
  double medianMs = -1;
  /// --energy: joules per launch (-1: not measured), or why not.
  double energyJ = -1;
  std::string energyError;
};

/// Runs `job` and returns each variant's outcome by name. Fails (with what
/// ks-bench printed) only when ks-bench gives no results at all: it could
/// not start, found no GPU, or rejected the arguments.
llvm::Expected<std::map<std::string, BenchOutcome>> runBench(const BenchJob &job);

/// A workload whose sizes are no multiple of any tile, for verification:
/// every value of 8 or more becomes (v/4) | 1 (4096 -> 1025, 1000 -> 251;
/// a quarter of each size keeps the check cheap next to the timing).
/// The map is monotone, so relations like lda >= M survive it; equal sizes
/// stay equal (a square workload is verified at a square odd size).
std::string oddWorkload(const std::map<std::string, int64_t> &values);

/// `NAME=VALUE,...` of `values`, in name order.
std::string workloadText(const std::map<std::string, int64_t> &values);

/// The ks-bench to run: `option` when not empty, else `ks-bench` beside the
/// running executable, else on PATH.
std::optional<std::string> findBench(llvm::StringRef option);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_MEASURE_H
