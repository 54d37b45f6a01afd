//===- Device.h - Loading, launching and timing kernels ---------*- C++ -*-===//
//
// A thin layer over the CUDA runtime API (statically linked cudart, which
// finds the driver at run time, so ks-bench starts and reports "no GPU"
// cleanly on machines without one). PTX and cubin load through
// cudaLibraryLoadData, keeping the JIT log.
//
//===----------------------------------------------------------------------===//
#ifndef KERNELSKILL_RUNTIME_DEVICE_H
#define KERNELSKILL_RUNTIME_DEVICE_H

#include "kernelskill/Runtime/Results.h"

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::ks::runtime {

/// Selects device `ordinal` and describes it; false with `error` when there
/// is no usable GPU.
bool openDevice(int ordinal, DeviceInfo &info, std::string &error);

/// "cudaErrorIllegalAddress: an illegal memory access was encountered".
std::string describe(cudaError_t err);

/// A loaded PTX or cubin module and one kernel in it.
struct LoadedKernel {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  std::string jitLog; ///< ptxas/JIT info log (PTX only)
  int numRegs = 0, staticSmem = 0, localBytes = 0, maxThreadsPerBlock = 0;
  /// The byte size of each kernel parameter, as the module declares them.
  std::vector<size_t> paramSizes;
};

/// Loads `path` (PTX text or a cubin) and finds `kernelName` in it. On
/// failure `error` holds the JIT error log, or the kernels the module has.
bool loadKernel(const std::string &path, const std::string &kernelName, LoadedKernel &out,
                std::string &error);

/// One kernel argument's bytes (a device pointer or a scalar value).
struct KernelArg {
  std::array<uint8_t, 8> bytes{};
};

/// Launches; `smem` above 48 KiB raises the kernel's dynamic-smem limit first.
cudaError_t launch(const LoadedKernel &k, std::array<int64_t, 3> grid, std::array<int64_t, 3> block,
                   int64_t smem, std::vector<KernelArg> &args, cudaStream_t stream);

} // namespace mlir::ks::runtime

#endif // KERNELSKILL_RUNTIME_DEVICE_H
