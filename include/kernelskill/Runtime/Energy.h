//===- Energy.h - The GPU's energy per launch (NVML) ------------*- C++ -*-===//
//
// objective=energy (docs/Runtime.md, "Energy"): the board's energy counter
// (NVML's total energy consumption, millijoules since the driver loaded)
// read around a long run of back-to-back launches. NVML is loaded at run
// time, like CUPTI (Counters.cpp): no link dependency, and a machine
// without it (or a GPU without the counter, before Volta) reports why.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_ENERGY_H
#define KERNELSKILL_RUNTIME_ENERGY_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace mlir::ks::runtime {

/// The energy of one launch: the board's mean power over `seconds` (between
/// two updates of the counter) while `launches` launches ran back to back,
/// times the time of one in that run.
struct EnergySample {
  double joulesPerLaunch = 0;
  double watts = 0; ///< the board's mean power over the window
  double seconds = 0;
  int64_t launches = 0; ///< the whole run's, the warm-up's included
};

/// Keeps the GPU busy with `enqueue` (a batch of launches added without
/// waiting for them, pacing itself so that a few batches stay in flight;
/// it returns how many it added, or -1 with `error` set) for a tenth of
/// `seconds` to warm up, then for at least `seconds` from one update of the
/// energy counter to another, reading it between batches; `drain` then
/// waits for the launches (false, with `error` set, on failure). Fails when
/// NVML, the counter or the device is not there.
bool measureEnergy(int cudaDevice, double seconds, const std::function<int64_t()> &enqueue,
                   const std::function<bool()> &drain, EnergySample &sample,
                   std::string &error);

/// measureEnergy's counting, with `read` giving the counter in millijoules
/// (false: it could not, `error` says why). Without a GPU: a test's counter.
bool countEnergy(const std::function<bool(unsigned long long &)> &read, double seconds,
                 const std::function<int64_t()> &enqueue, const std::function<bool()> &drain,
                 EnergySample &sample, std::string &error);

/// The sample as ks-bench's results JSON ("energy": joules_per_launch,
/// watts, seconds, launches, method).
nlohmann::json energyJSON(const EnergySample &sample);

/// The energy counter's step is a millijoule: a run shorter than this many
/// seconds resolves the energy of a launch too coarsely.
inline constexpr double kMinEnergySeconds = 0.1;

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_ENERGY_H
