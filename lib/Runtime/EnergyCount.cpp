//===- EnergyCount.cpp - Energy per launch from a counter -----------------===//
//
// The counting behind measureEnergy (Energy.h), apart from NVML so that it
// runs, and is unit-tested, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Energy.h"
#include "kernelskill/Support/BenchResultsSchema.h"

#include <chrono>
#include <thread>

namespace mlir::ks::runtime {
namespace keys = mlir::ks::bench_results;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}
} // namespace

bool countEnergy(const std::function<bool(unsigned long long &)> &read, double seconds,
                 const std::function<int64_t()> &enqueue, const std::function<bool()> &drain,
                 EnergySample &sample, std::string &error) {
  // The GPU is kept busy throughout: `enqueue` adds a batch without waiting
  // for it (a few batches stay in flight), and the counter is read between
  // batches while the GPU works (a read takes milliseconds: reading after
  // each synchronized batch left the GPU idle most of the time, and the idle
  // power was counted as the launches').
  Clock::time_point runStart = Clock::now();
  int64_t launches = 0;
  auto more = [&]() {
    int64_t n = enqueue();
    if (n < 0)
      return false; // `enqueue` set error
    launches += n;
    return true;
  };
  // Warm: a tenth of the window, then the first update of the counter
  // starts the power's window, the first update after `seconds` ends it.
  while (since(runStart) < seconds / 10)
    if (!more())
      return false;
  unsigned long long first = 0, start = 0, now = 0;
  if (!read(first))
    return false;
  Clock::time_point waitFrom = Clock::now();
  do {
    if (!more() || !read(start))
      return false;
  } while (start == first && since(waitFrom) < 1);
  if (start == first) {
    error = "the energy counter did not advance in a second";
    return false;
  }
  Clock::time_point t0 = Clock::now();
  unsigned long long last = start;
  for (;;) {
    if (!more() || !read(now))
      return false;
    if (now < last) {
      error = "the energy counter went back";
      return false;
    }
    if (since(t0) >= seconds && now != last)
      break;
    last = now;
    if (since(t0) > seconds + 5) {
      error = "the energy counter stopped advancing";
      return false;
    }
  }
  double window = since(t0);
  if (!drain())
    return false; // `drain` set error
  // The GPU ran the launches back to back from the first to the drain: the
  // time of one is the run's over their number.
  double perLaunch = since(runStart) / double(std::max<int64_t>(launches, 1));
  sample.seconds = window;
  sample.launches = launches;
  sample.watts = window > 0 ? double(now - start) * 1e-3 / window : 0;
  sample.joulesPerLaunch = sample.watts * perLaunch;
  return true;
}

nlohmann::json energyJSON(const EnergySample &sample) {
  return {{keys::kEnergyJoulesPerLaunch, sample.joulesPerLaunch},
          {keys::kEnergyWatts, sample.watts},
          {keys::kEnergySeconds, sample.seconds},
          {keys::kEnergyLaunches, sample.launches},
          {keys::kEnergyMethod, "NVML: the mean power between two counter updates while "
                                "launches run back to back (L2 warm), times the time of one"}};
}

} // namespace mlir::ks::runtime
