//===- LaunchSpecSchema.h - The launch spec's JSON keys ---------*- C++ -*-===//
//
// The launch spec (docs/Runtime.md) is written by ks-emit-launch-spec with
// llvm::json (lib/Target) and read and written by the runtime with
// nlohmann/json (lib/Runtime). Both spell its keys from here, so a renamed
// key cannot leave one side behind. Standard library only: the runtime builds
// without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_SUPPORT_LAUNCHSPECSCHEMA_H
#define KERNELSKILL_SUPPORT_LAUNCHSPECSCHEMA_H

namespace mlir::ks::launch_spec {

// The document: {"kernel": NAME, "params": [PARAM...], "grid": [F, F, F],
// "block": [F, F, F], "smem": F, "flops": F, "bytes": F, "scalars": {NAME:
// INT}}, where F is an integer or a formula (docs/Runtime.md).
inline constexpr const char *kKernel = "kernel";
inline constexpr const char *kParams = "params";
inline constexpr const char *kGrid = "grid";
inline constexpr const char *kBlock = "block";
inline constexpr const char *kSmem = "smem";
inline constexpr const char *kFlops = "flops";
inline constexpr const char *kBytes = "bytes";
inline constexpr const char *kScalars = "scalars";
/// Every top-level key, in the order the error message lists them.
inline constexpr const char *kTopLevelKeys[] = {kKernel, kParams, kGrid,  kBlock,
                                                kSmem,   kFlops,  kBytes, kScalars};

// A parameter: {"name": NAME, "type": TYPE}, and for buffers "extent": F,
// "role": "in" | "out" | "inout", optionally "range": [LO, HI]; a buffer with
// "global": true is a __constant__ or __device__ variable of the kernel's
// module (filled and read back by name), not an argument. A scalar with
// "value": F is one the launcher computes from others (`n4 = n / 4` passed
// to the kernel): F, a formula of the other scalars, unless the workload
// gives it.
inline constexpr const char *kName = "name";
inline constexpr const char *kType = "type";
inline constexpr const char *kExtent = "extent";
inline constexpr const char *kRole = "role";
inline constexpr const char *kRange = "range";
inline constexpr const char *kGlobal = "global";
inline constexpr const char *kValue = "value";

// The values of "role".
inline constexpr const char *kRoleIn = "in";
inline constexpr const char *kRoleOut = "out";
inline constexpr const char *kRoleInOut = "inout";
/// Only the kernels see it (a launcher's own intermediate, `ks.scratch`):
/// poisoned, neither compared nor checked, so a fusion may stop writing it.
inline constexpr const char *kRoleScratch = "scratch";

} // namespace mlir::ks::launch_spec

#endif // KERNELSKILL_SUPPORT_LAUNCHSPECSCHEMA_H
