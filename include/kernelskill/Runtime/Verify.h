//===- Verify.h - Is a candidate's output the reference's? ------*- C++ -*-===//
//
// The verification rules ks-bench applies to a candidate's buffers, as pure
// host functions over the bytes copied back from the device, so that each
// rule has a unit test that runs without a GPU (Bench.cpp only moves data).
//
// Every output is produced twice per kernel, once into a buffer poisoned with
// kPoisonA bytes and once into kPoisonB bytes (HostData.h): an element still
// holding both patterns was never written.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_VERIFY_H
#define KERNELSKILL_RUNTIME_VERIFY_H

#include "kernelskill/Runtime/HostData.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// The verdict on one output buffer.
struct OutputCheck {
  Comparison comparison;
  double tolerance = 0;
  /// Elements the reference left unwritten; they are not compared.
  size_t referenceUnwritten = 0;
};

/// The reference's and the candidate's copies of one output buffer of
/// `count` elements of `type`, from the run poisoned with kPoisonA and the run
/// poisoned with kPoisonB. `candidateB` is null where the candidate ran once
/// (the check after timing): its unwritten elements are then not detected.
/// `poisoned` says whether the buffer was poisoned before the runs (role
/// `out`); an `inout` buffer holds inputs, so nothing in it is "unwritten".
struct OutputRuns {
  std::span<const uint8_t> referenceA, referenceB, candidateA;
  const std::vector<uint8_t> *candidateB;
  bool poisoned = true;
};

/// Applies every rule to one output: elements the candidate left unwritten
/// (where the reference wrote) fail; non-finite values must match the
/// reference exactly; the relative L2 error must be within `tolerance`; and
/// every element within 10 x tolerance of its own scale (compare()).
OutputCheck verifyOutput(const OutputRuns &runs, ElemType type, size_t count, double tolerance);

/// Why input buffer `name` fails verification, or nullopt when the kernel
/// left it as uploaded (`before`): a kernel must not write its `in` buffers.
std::optional<std::string> checkInputUnchanged(const std::string &name,
                                               const std::vector<uint8_t> &before,
                                               const std::vector<uint8_t> &after);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_VERIFY_H
