//===- Energy.cpp - The GPU's energy per launch (NVML) --------------------===//
//
// NVML's C API, the four functions used, declared here (its header is not
// part of every CUDA toolkit) and loaded with dlopen; the counting is
// EnergyCount.cpp's.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Runtime/Energy.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

namespace mlir::ks::runtime {
namespace {

using NvmlDevice = struct NvmlDeviceOpaque *;
using NvmlReturn = int; // nvmlReturn_t: 0 is NVML_SUCCESS

struct NvmlApi {
  NvmlReturn (*nvmlInit_v2)() = nullptr;
  NvmlReturn (*nvmlDeviceGetHandleByPciBusId_v2)(const char *, NvmlDevice *) = nullptr;
  NvmlReturn (*nvmlDeviceGetTotalEnergyConsumption)(NvmlDevice, unsigned long long *) = nullptr;
  const char *(*nvmlErrorString)(NvmlReturn) = nullptr;
  std::string error; ///< why NVML cannot be used
};

/// NVML, loaded and initialized once per process.
const NvmlApi &nvml() {
  static const NvmlApi api = [] {
    NvmlApi api;
    void *handle = nullptr;
    for (const char *path : {"libnvidia-ml.so.1", "libnvidia-ml.so"})
      if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!handle) {
      const char *e = dlerror();
      api.error = std::string("NVML not found (") + (e ? e : "libnvidia-ml.so.1") + ")";
      return api;
    }
#define KS_REQUIRE(name)                                                                           \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));                           \
  if (!api.name) {                                                                                 \
    api.error = "NVML lacks " #name;                                                               \
    return api;                                                                                    \
  }
    KS_REQUIRE(nvmlInit_v2)
    KS_REQUIRE(nvmlDeviceGetHandleByPciBusId_v2)
    KS_REQUIRE(nvmlDeviceGetTotalEnergyConsumption)
    KS_REQUIRE(nvmlErrorString)
#undef KS_REQUIRE
    if (NvmlReturn r = api.nvmlInit_v2())
      api.error = std::string("nvmlInit: ") + api.nvmlErrorString(r);
    return api;
  }();
  return api;
}

} // namespace

bool measureEnergy(int cudaDevice, double seconds, const std::function<int64_t()> &enqueue,
                   const std::function<bool()> &drain, EnergySample &sample,
                   std::string &error) {
  const NvmlApi &api = nvml();
  if (!api.error.empty()) {
    error = api.error;
    return false;
  }
  // CUDA's device order need not be NVML's: the PCI bus id names the board.
  char bus[64] = {0};
  if (cudaError_t e = cudaDeviceGetPCIBusId(bus, sizeof(bus), cudaDevice)) {
    error = std::string("cudaDeviceGetPCIBusId: ") + cudaGetErrorString(e);
    return false;
  }
  NvmlDevice device = nullptr;
  if (NvmlReturn r = api.nvmlDeviceGetHandleByPciBusId_v2(bus, &device)) {
    error = std::string("nvmlDeviceGetHandleByPciBusId(") + bus + "): " + api.nvmlErrorString(r);
    return false;
  }
  auto read = [&](unsigned long long &mJ) {
    if (NvmlReturn r = api.nvmlDeviceGetTotalEnergyConsumption(device, &mJ)) {
      error = std::string("nvmlDeviceGetTotalEnergyConsumption: ") + api.nvmlErrorString(r);
      return false;
    }
    return true;
  };
  return countEnergy(read, seconds, enqueue, drain, sample, error);
}

} // namespace mlir::ks::runtime
