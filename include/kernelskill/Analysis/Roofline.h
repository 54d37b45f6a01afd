//===- Roofline.h - The time floor of a kernel and what bounds it -*- C++ -*-===//
//
// time floor = max(FLOPs / peak of the unit that runs them,
//                  DRAM bytes / DRAM bandwidth)
//
// A kernel is latency-bound when its launch is too small to keep the GPU busy
// (fewer warps than kMinWarpsPerSM on every SM), else memory- or compute-bound
// by which term of the floor is larger. With a measured time, the headroom is
// the fraction of that time above the floor.
//
// Pure C++ over GPUCapabilities; unit-tested.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_ANALYSIS_ROOFLINE_H
#define KERNELSKILL_ANALYSIS_ROOFLINE_H

#include "kernelskill/Support/ArchDatabase.h"

#include <array>
#include <optional>

namespace mlir::ks {

/// Warps per SM below which memory latency cannot be hidden (two per
/// scheduler on a four-scheduler SM).
constexpr double kMinWarpsPerSM = 8;

enum class Bound { Memory, Compute, Latency };
const char *toString(Bound bound);

struct RooflineInput {
  /// FLOPs by element type: f16, bf16, f32, f64. Scalar (non-tensor-core)
  /// f16/bf16 math is charged at the fp32 rate.
  std::array<double, 4> flops = {0, 0, 0, 0};
  double dramBytes = 0;
  double totalWarps = 0; ///< warps in the launch
  std::optional<double> measuredSeconds;
};

struct Roofline {
  double computeSeconds = 0, memorySeconds = 0;
  double floorSeconds = 0;
  double intensity = 0;   ///< FLOP per DRAM byte
  double ridgePoint = 0;  ///< FLOP per byte where the two roofs meet (fp32)
  Bound bound = Bound::Memory;
  /// 1 - floor / measured, when a measurement exists.
  std::optional<double> headroom;
};

Roofline computeRoofline(const GPUCapabilities &caps, const RooflineInput &input);

} // namespace mlir::ks

#endif // KERNELSKILL_ANALYSIS_ROOFLINE_H
