//===- EnergyCountTest.cpp - Energy per launch from a counter -------------===//

#include "kernelskill/Runtime/Energy.h"

#include "gtest/gtest.h"

#include <chrono>

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

TEST(EnergyCount, CountsFromOneUpdateToAnother) {
  FakeCounter counter;
  unsigned long long startValue = 0;
  int64_t launchesSeen = 0;
  EnergySample sample;
  std::string error;
  auto read = [&](unsigned long long &mJ) { return counter.read(mJ); };
  auto batch = [&]() -> int64_t {
    if (launchesSeen == 0)
      startValue = counter.value; // the update the count starts from
    launchesSeen += 4;
    return 4;
  };
  ASSERT_TRUE(countEnergy(read, /*seconds=*/0.001, batch, sample, error)) << error;
  EXPECT_EQ(sample.launches, launchesSeen);
  // Whole steps of the counter between the first update and the last read.
  double joules = double(counter.value - startValue) * 1e-3;
  EXPECT_GT(joules, 0);
  EXPECT_DOUBLE_EQ(sample.joulesPerLaunch, joules / double(launchesSeen));
  EXPECT_GT(sample.watts, 0);
  EXPECT_GE(sample.seconds, 0.001);
}

TEST(EnergyCount, ACounterThatNeverMovesIsAnError) {
  EnergySample sample;
  std::string error;
  auto still = [](unsigned long long &mJ) {
    mJ = 42;
    return true;
  };
  EXPECT_FALSE(countEnergy(still, 0.001, [] { return int64_t(1); }, sample, error));
  EXPECT_EQ(error, "the energy counter did not advance in a second");
}

TEST(EnergyCount, FailuresOfTheCounterAndTheLaunchesComeThrough) {
  EnergySample sample;
  std::string error;
  auto broken = [&](unsigned long long &) {
    error = "nvmlDeviceGetTotalEnergyConsumption: Not Supported";
    return false;
  };
  EXPECT_FALSE(countEnergy(broken, 0.001, [] { return int64_t(1); }, sample, error));
  EXPECT_EQ(error, "nvmlDeviceGetTotalEnergyConsumption: Not Supported");
  FakeCounter counter;
  counter.period = 1;
  error.clear();
  auto failing = [&]() -> int64_t {
    error = "launch failed: an illegal memory access";
    return -1;
  };
  EXPECT_FALSE(countEnergy([&](unsigned long long &mJ) { return counter.read(mJ); }, 0.001,
                           failing, sample, error));
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
