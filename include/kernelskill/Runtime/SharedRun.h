//===- SharedRun.h - What the variant jobs of one run share -----*- C++ -*-===//
//
// ks-bench runs every variant in its own worker process (Isolation.cpp). The
// workers of one run verify against the same reference on the same seeded
// inputs; SharedRun makes those once, before the workers fork. Host code
// only: it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_SHAREDRUN_H
#define KERNELSKILL_RUNTIME_SHAREDRUN_H

#include "kernelskill/Runtime/Workload.h"

#include <cstdint>
#include <span>
#include <vector>

namespace mlir::ks::runtime {

/// Whether the kernel writes buffer `p` (roles `out` and `inout`).
bool isOutput(const Param &p);

/// Seeded random contents for every `in` and `inout` buffer of `spec` at
/// `launch`'s sizes (per parameter; empty for the others).
std::vector<std::vector<uint8_t>> makeInputs(const LaunchSpec &spec, const ResolvedLaunch &launch,
                                             uint64_t seed);

/// What the variant jobs of one run share, made before the workers fork:
/// the seeded inputs, which each worker inherits (copy-on-write), and a
/// shared memory mapping in which the first worker that runs the reference
/// leaves the reference's outputs for the later ones. At a benchmark size
/// (1 GiB a buffer) making the inputs and running the reference twice took
/// seconds in every worker, most of a search's measuring time. The
/// reference is deterministic on these inputs up to reordering, which the
/// tolerance covers, so reusing its outputs checks the same thing.
class SharedRun {
public:
  SharedRun(const LaunchSpec &spec, const ResolvedLaunch &launch, uint64_t seed);
  ~SharedRun();
  SharedRun(const SharedRun &) = delete;
  SharedRun &operator=(const SharedRun &) = delete;

  /// Per parameter: the initial contents of an `in` or `inout` buffer;
  /// empty for the others.
  const std::vector<std::vector<uint8_t>> &inputs() const { return inputs_; }
  /// Whether some worker has stored the reference's outputs.
  bool hasReference() const;
  /// The reference's output buffer `param` from its run poisoned with
  /// kPoisonA (or, with `poisonB`, kPoisonB); empty for non-outputs.
  std::span<const uint8_t> reference(size_t param, bool poisonB) const;
  /// Keeps the reference's outputs (per parameter, empty for non-outputs)
  /// for the workers after this one; does nothing where the mapping could
  /// not be made (each worker then runs the reference itself).
  void storeReference(const std::vector<std::vector<uint8_t>> &a,
                      const std::vector<std::vector<uint8_t>> &b);

private:
  std::vector<std::vector<uint8_t>> inputs_;
  std::vector<size_t> offsets_, bytes_; // per parameter, in the mapping
  uint8_t *mapping_ = nullptr;          // a ready flag, then A and B per output
  size_t mappingBytes_ = 0;
};

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_SHAREDRUN_H
