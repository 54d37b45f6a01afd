//===- HostData.h - Typed host buffers: fill, poison, compare ---*- C++ -*-===//
//
// Inputs are seeded random values, never zeros; outputs are poisoned before
// every run; a candidate's outputs are compared with the reference's as
// doubles: ||out - ref|| / ||ref|| and the largest absolute error, with NaNs
// and unwritten elements always failing.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_HOSTDATA_H
#define KERNELSKILL_RUNTIME_HOSTDATA_H

#include "kernelskill/Runtime/Workload.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// IEEE half and bfloat16 <-> float, in software (round to nearest even).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
float bf16ToFloat(uint16_t bits);
uint16_t floatToBF16(float value);

/// Element `i` of a raw buffer of `type`, as a double.
double loadAsDouble(const void *data, ElemType type, size_t i);

/// Fills `bytes` (count elements of `type`) with values drawn uniformly from
/// [lo, hi) by a generator seeded with `seed`. Floats that round to exactly
/// 0 are nudged away from it so that a kernel that reads nothing cannot pass.
void fillRandom(std::vector<uint8_t> &bytes, ElemType type, size_t count, double lo, double hi,
                uint64_t seed);

/// A seed for buffer `name` derived from the run's seed.
uint64_t seedFor(uint64_t runSeed, const std::string &name);

/// The two poison patterns: all-ones bytes (NaN for floats) and 0x7F bytes
/// (a large finite value). An element equal under both poisonings was never
/// written.
constexpr uint8_t kPoisonA = 0xFF, kPoisonB = 0x7F;

struct Comparison {
  size_t count = 0;
  double relativeL2 = 0; ///< ||out - ref|| / ||ref|| (||out - ref|| when ref is 0)
  double maxAbs = 0;
  size_t nanCount = 0;       ///< NaN/Inf in out or ref that the other does not match
  size_t outlierCount = 0;   ///< elements off by more than 10x tolerance of their scale
  size_t unwrittenCount = 0; ///< elements left as they were poisoned
  size_t firstBad = SIZE_MAX; ///< index of the first NaN/unwritten/worst element
  bool pass = false;
  std::string reason; ///< why it failed, for people
};

/// Compares `out` with `ref`. `unwritten`, if non-empty, flags elements the
/// kernel did not write (from the two poisonings). Passes when there are no
/// unwritten elements, non-finite values match exactly, relativeL2 <=
/// tolerance, and every element is within 10 x tolerance x (|ref| + RMS of
/// ref) of the reference (so a few wrong elements cannot hide in the norm).
Comparison compare(std::span<const uint8_t> out, std::span<const uint8_t> ref,
                   const std::vector<uint8_t> &unwritten, ElemType type, size_t count,
                   double tolerance);

/// Checking a candidate walks gigabytes of outputs on the host: the checks
/// run over chunks of this many elements, on up to 16 threads.
constexpr size_t kChunkElements = size_t(1) << 20;

/// Calls `body(chunk, begin, end)` for every chunk of [0, count), in
/// parallel; chunk k covers [k * kChunkElements, min(count, (k + 1) *
/// kChunkElements)). Callers keep one result per chunk and merge them in
/// chunk order, so what they compute does not depend on the thread count.
void forEachChunk(size_t count, const std::function<void(size_t, size_t, size_t)> &body);

/// The default tolerance on ||out - ref|| / ||ref|| for a precision:
/// f64 1e-12, f32 1e-5 (reordering), tf32 5e-3, f16/bf16 1e-2, integers 0.
double defaultTolerance(ElemType type, bool tf32 = false);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_HOSTDATA_H
