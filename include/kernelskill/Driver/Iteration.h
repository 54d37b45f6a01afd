//===- Iteration.h - Re-profiling the winner between search rounds -*- C++ -*-===//
//
// Step 5 of the agent driver (docs/Agents.md): after each round the fastest
// verified candidate (with measure=static, the chosen one, predicted) is
// profiled again against the kernel's roofline floor (`ks.floor_time`, the
// performance profiler's floor plus the launch: no schedule of the kernel
// can be faster), and the search goes on only while that leaves headroom
// over `target=` (a fraction of the floor). The floor belongs to the
// computation, not to a schedule: FLOPs and compulsory DRAM bytes are the
// same for every candidate, so one figure of the input serves every round.
//
// Pure C++; unit-tested (unittests/Driver/IterationTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_DRIVER_ITERATION_H
#define KERNELSKILL_DRIVER_ITERATION_H

#include <optional>
#include <string>

namespace mlir::ks {

/// A time more than this far under the floor (floor / time above it) is not
/// one launch's time from a cold L2, which the floor describes: ks-bench
/// times kernels under 20 us as CUDA-graph replays with a warm L2, and
/// objective=throughput overlaps launches. Such a round is not compared
/// with the target.
constexpr double kBeyondFloor = 1.1;

/// The winner of one search round, profiled against the roofline floor.
struct RoundDiagnosis {
  int round = 1;
  std::string candidate; ///< family and knobs, as the transcript names them
  double ms = -1;        ///< its time: measured, else the model's
  bool measured = false;
  double floorMs = -1;   ///< the kernel's floor; -1 when the profiler gave none

  /// floor / time: 1 at the floor; -1 when either is unknown.
  double ofFloor() const { return floorMs > 0 && ms > 0 ? floorMs / ms : -1; }
  /// The fraction of the time above the floor (the profiler's headroom),
  /// in [0, 1]; -1 when unknown.
  double headroom() const;
  /// Faster than the floor by more than kBeyondFloor allows: not comparable.
  bool beyondFloor() const { return ofFloor() > kBeyondFloor; }
};

/// Why the search stops after `r` because it reached `target` (a fraction of
/// the roofline floor), or nothing when it goes on: no floor, no time, a
/// time beyond the floor (not comparable), a target of 0 (off) or one not
/// reached.
std::optional<std::string> targetReached(const RoundDiagnosis &r, double target);

/// One line for the transcript and the messages: "round 2: c, 0.0812 ms
/// measured, 0.84 of the roofline floor (0.0682 ms), headroom 0.16".
std::string describeRound(const RoundDiagnosis &r);

} // namespace mlir::ks

#endif // KERNELSKILL_DRIVER_ITERATION_H
