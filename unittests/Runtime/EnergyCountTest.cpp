//===- EnergyCountTest.cpp - Energy per launch from a counter -------------===//

#include "kernelskill/Runtime/Energy.h"

#include "gtest/gtest.h"

#include <chrono>
#include <thread>

using namespace mlir::ks::runtime;

namespace {

/// A counter in millijoules that advances by `step` every `period` reads,
/// as NVML's does every few milliseconds.
struct FakeCounter {
  unsigned long long value = 1000000, step = 10;
  int period = 3, reads = 0;
  bool read(unsigned long long &mJ) {
    if (++reads % period == 0)
      value += step;
    mJ = value;
    return true;
  }
};

// The power is the counter's rise over the window between two of its
// updates; the energy of a launch, that power times the time of one in the
// run (here a batch of 4 takes at least 1 ms: a quarter millisecond each).
TEST(EnergyCount, PowerBetweenUpdatesTimesTheTimeOfALaunch) {
  FakeCounter counter;
  int64_t enqueued = 0;
  int drains = 0;
  EnergySample sample;
  std::string error;
  auto read = [&](unsigned long long &mJ) { return counter.read(mJ); };
  auto enqueue = [&]() -> int64_t {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    enqueued += 4;
    return 4;
  };
  auto drain = [&] {
    ++drains;
    return true;
  };
  ASSERT_TRUE(countEnergy(read, /*seconds=*/0.02, enqueue, drain, sample, error)) << error;
  EXPECT_EQ(sample.launches, enqueued);
  EXPECT_EQ(drains, 1);
  EXPECT_GE(sample.seconds, 0.02);
  EXPECT_GT(sample.watts, 0);
  double perLaunch = sample.joulesPerLaunch / sample.watts;
  EXPECT_GE(perLaunch, 0.25e-3);
  EXPECT_LT(perLaunch, 0.5e-3);
}

TEST(EnergyCount, ACounterThatNeverMovesIsAnError) {
  EnergySample sample;
  std::string error;
  auto still = [](unsigned long long &mJ) {
    mJ = 42;
    return true;
  };
  EXPECT_FALSE(countEnergy(still, 0.001, [] { return int64_t(1); }, [] { return true; }, sample,
                           error));
  EXPECT_EQ(error, "the energy counter did not advance in a second");
}

TEST(EnergyCount, FailuresOfTheCounterAndTheLaunchesComeThrough) {
  EnergySample sample;
  std::string error;
  auto broken = [&](unsigned long long &) {
    error = "nvmlDeviceGetTotalEnergyConsumption: Not Supported";
    return false;
  };
  EXPECT_FALSE(countEnergy(broken, 0.001, [] { return int64_t(1); }, [] { return true; }, sample,
                           error));
  EXPECT_EQ(error, "nvmlDeviceGetTotalEnergyConsumption: Not Supported");
  FakeCounter counter;
  counter.period = 1;
  error.clear();
  auto failing = [&]() -> int64_t {
    error = "launch failed: an illegal memory access";
    return -1;
  };
  EXPECT_FALSE(countEnergy([&](unsigned long long &mJ) { return counter.read(mJ); }, 0.001,
                           failing, [] { return true; }, sample, error));
  EXPECT_EQ(error, "launch failed: an illegal memory access");
}

TEST(EnergyCount, TheJSONNamesItsFields) {
  EnergySample sample{0.002, 300, 0.5, 75000};
  nlohmann::json j = energyJSON(sample);
  EXPECT_DOUBLE_EQ(j["joules_per_launch"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(j["watts"].get<double>(), 300);
  EXPECT_EQ(j["launches"].get<int64_t>(), 75000);
  EXPECT_NE(j["method"].get<std::string>().find("NVML"), std::string::npos);
}

} // namespace
