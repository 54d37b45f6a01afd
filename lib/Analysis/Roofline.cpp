//===- Roofline.cpp - The time floor of a kernel and what bounds it -------===//

#include "kernelskill/Analysis/Roofline.h"

#include <algorithm>

using namespace mlir::ks;

const char *mlir::ks::toString(Bound bound) {
  switch (bound) {
  case Bound::Memory:
    return "memory";
  case Bound::Compute:
    return "compute";
  case Bound::Latency:
    return "latency";
  }
  return "?";
}

Roofline mlir::ks::computeRoofline(const GPUCapabilities &caps, const RooflineInput &in) {
  Roofline r;
  double fp32 = caps.fp32TFlops * 1e12, fp64 = caps.fp64TFlops * 1e12;
  double totalFlops = in.flops[0] + in.flops[1] + in.flops[2] + in.flops[3];
  if (fp32 > 0)
    r.computeSeconds = (in.flops[0] + in.flops[1] + in.flops[2]) / fp32;
  if (fp64 > 0)
    r.computeSeconds += in.flops[3] / fp64;
  double bandwidth = caps.dramGBps * 1e9;
  if (bandwidth > 0)
    r.memorySeconds = in.dramBytes / bandwidth;
  r.floorSeconds = std::max(r.computeSeconds, r.memorySeconds);
  r.intensity = in.dramBytes > 0 ? totalFlops / in.dramBytes : 0;
  r.ridgePoint = bandwidth > 0 ? fp32 / bandwidth : 0;
  r.bound = r.computeSeconds > r.memorySeconds ? Bound::Compute : Bound::Memory;
  if (caps.smCount > 0 && in.totalWarps < kMinWarpsPerSM * double(caps.smCount))
    r.bound = Bound::Latency;
  if (in.measuredSeconds && *in.measuredSeconds > 0)
    r.headroom = std::clamp(1 - r.floorSeconds / *in.measuredSeconds, 0.0, 1.0);
  return r;
}
