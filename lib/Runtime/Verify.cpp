//===- Verify.cpp - Is a candidate's output the reference's? --------------===//

#include "kernelskill/Runtime/Verify.h"

#include <cstring>
#include <span>

using namespace mlir::ks::runtime;

namespace {
/// Whether element `e` (of `width` bytes) of `data` is all `byte`.
bool holdsPoison(std::span<const uint8_t> data, size_t e, size_t width, uint8_t byte) {
  for (size_t b = 0; b < width; ++b)
    if (data[e * width + b] != byte)
      return false;
  return true;
}
} // namespace

OutputCheck mlir::ks::runtime::verifyOutput(const OutputRuns &runs, ElemType type, size_t count,
                                            double tolerance) {
  OutputCheck check;
  check.tolerance = tolerance;
  size_t width = sizeOf(type);
  // Positions the reference leaves unwritten are not compared: the
  // reference's own values stand in for the candidate's there. Positions the
  // candidate leaves unwritten (poison survives both poisonings) fail.
  std::vector<uint8_t> candidate(runs.candidateA.begin(), runs.candidateA.end());
  std::vector<uint8_t> unwritten(runs.poisoned && runs.candidateB ? count : 0, 0);
  std::vector<size_t> skipped((count + kChunkElements - 1) / kChunkElements, 0);
  if (runs.poisoned)
    forEachChunk(count, [&](size_t k, size_t begin, size_t end) {
      for (size_t e = begin; e < end; ++e) {
        if (holdsPoison(runs.referenceA, e, width, kPoisonA) &&
            holdsPoison(runs.referenceB, e, width, kPoisonB)) {
          std::memcpy(&candidate[e * width], &runs.referenceA[e * width], width);
          ++skipped[k];
        } else if (runs.candidateB && holdsPoison(runs.candidateA, e, width, kPoisonA) &&
                   holdsPoison(*runs.candidateB, e, width, kPoisonB)) {
          unwritten[e] = 1;
        }
      }
    });
  for (size_t s : skipped)
    check.referenceUnwritten += s;
  check.comparison = compare(candidate, runs.referenceA, unwritten, type, count, tolerance);
  return check;
}

std::optional<std::string>
mlir::ks::runtime::checkInputUnchanged(const std::string &name, const std::vector<uint8_t> &before,
                                       const std::vector<uint8_t> &after) {
  if (after == before)
    return std::nullopt;
  return "the kernel wrote to input buffer '" + name + "'";
}
