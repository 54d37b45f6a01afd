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
                 const std::function<int64_t()> &batch, EnergySample &sample,
                 std::string &error) {
  // Start at an update of the counter (it advances every few ms to tens of
  // ms, by the board): launching from there, the count between two updates
  // covers only the run.
  unsigned long long first = 0, start = 0, now = 0;
  if (!read(first))
    return false;
  Clock::time_point waitFrom = Clock::now();
  do {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (!read(start))
      return false;
  } while (start == first && since(waitFrom) < 1);
  if (start == first) {
    error = "the energy counter did not advance in a second";
    return false;
  }
  Clock::time_point t0 = Clock::now();
  int64_t launches = 0;
  unsigned long long last = start;
  // Batches until the run is long enough and the counter has moved since
  // the last read: then it has counted up to a moment inside that batch.
  for (;;) {
    int64_t n = batch();
    if (n < 0)
      return false; // `batch` set error
    launches += n;
    if (!read(now))
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
  sample.seconds = since(t0);
  sample.launches = launches;
  double joules = double(now - start) * 1e-3;
  sample.joulesPerLaunch = launches > 0 ? joules / double(launches) : 0;
  sample.watts = sample.seconds > 0 ? joules / sample.seconds : 0;
  return true;
}

nlohmann::json energyJSON(const EnergySample &sample) {
  return {{keys::kEnergyJoulesPerLaunch, sample.joulesPerLaunch},
          {keys::kEnergyWatts, sample.watts},
          {keys::kEnergySeconds, sample.seconds},
          {keys::kEnergyLaunches, sample.launches},
          {keys::kEnergyMethod, "NVML total energy between two counter updates, back-to-back "
                                "launches (L2 warm)"}};
}

} // namespace mlir::ks::runtime
