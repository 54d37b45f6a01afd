//===- SharedRun.cpp - What the variant jobs of one run share -------------===//

#include "kernelskill/Runtime/SharedRun.h"
#include "kernelskill/Runtime/HostData.h"

#include <atomic>
#include <cstring>
#include <sys/mman.h>

using namespace mlir::ks::runtime;

bool mlir::ks::runtime::isOutput(const Param &p) {
  return p.isBuffer && (p.role == Role::Out || p.role == Role::InOut);
}

std::vector<std::vector<uint8_t>>
mlir::ks::runtime::makeInputs(const LaunchSpec &spec, const ResolvedLaunch &launch, uint64_t seed) {
  std::vector<std::vector<uint8_t>> inputs(spec.params.size());
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const Param &p = spec.params[i];
    if (p.isBuffer && (p.role == Role::In || p.role == Role::InOut))
      fillRandom(inputs[i], p.type, size_t(launch.extents[i]), p.lo, p.hi, seedFor(seed, p.name));
  }
  return inputs;
}

SharedRun::SharedRun(const LaunchSpec &spec, const ResolvedLaunch &launch, uint64_t seed)
    : inputs_(makeInputs(spec, launch, seed)), offsets_(spec.params.size(), 0),
      bytes_(spec.params.size(), 0) {
  // A page for the ready flag, then each output's A and B copies.
  constexpr size_t kHeader = 4096;
  size_t end = kHeader;
  for (size_t i = 0; i < spec.params.size(); ++i)
    if (isOutput(spec.params[i])) {
      bytes_[i] = size_t(launch.extents[i]) * sizeOf(spec.params[i].type);
      offsets_[i] = end;
      end += 2 * bytes_[i];
    }
  // Shared with the forked workers; pages are only backed once written.
  void *p = mmap(nullptr, end, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p != MAP_FAILED) {
    mapping_ = static_cast<uint8_t *>(p);
    mappingBytes_ = end;
  }
}

SharedRun::~SharedRun() {
  if (mapping_)
    munmap(mapping_, mappingBytes_);
}

bool SharedRun::hasReference() const {
  return mapping_ && std::atomic_ref<uint8_t>(*mapping_).load(std::memory_order_acquire) == 1;
}

std::span<const uint8_t> SharedRun::reference(size_t param, bool poisonB) const {
  if (!bytes_[param])
    return {};
  return {mapping_ + offsets_[param] + (poisonB ? bytes_[param] : 0), bytes_[param]};
}

void SharedRun::storeReference(const std::vector<std::vector<uint8_t>> &a,
                               const std::vector<std::vector<uint8_t>> &b) {
  if (!mapping_)
    return;
  for (size_t i = 0; i < bytes_.size(); ++i) {
    if (!bytes_[i])
      continue;
    if (a[i].size() != bytes_[i] || b[i].size() != bytes_[i])
      return; // not what this run's outputs are: keep nothing
    std::memcpy(mapping_ + offsets_[i], a[i].data(), bytes_[i]);
    std::memcpy(mapping_ + offsets_[i] + bytes_[i], b[i].data(), bytes_[i]);
  }
  // Set last: a worker killed while copying leaves no half-written reference.
  std::atomic_ref<uint8_t>(*mapping_).store(1, std::memory_order_release);
}

