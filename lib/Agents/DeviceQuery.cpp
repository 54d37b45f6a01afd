//===- DeviceQuery.cpp - Read a live GPU's capabilities -------------------===//
//
// The driver library is loaded with dlopen rather than linked, so ks-opt
// starts (and every other source= works) on machines without an NVIDIA
// driver, such as CI; only source=device needs one.
//
//===----------------------------------------------------------------------===//

#include "kernelskill/Agents/DeviceQuery.h"
#include "kernelskill/Config.h"

#include "llvm/Support/FormatVariadic.h"

#if KS_HAVE_CUDA_TOOLKIT
#include <cuda.h>
#include <dlfcn.h>
#endif

using namespace mlir::ks;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

#if KS_HAVE_CUDA_TOOLKIT
namespace {
/// The handful of driver entry points the query needs.
struct DriverAPI {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDeviceGetCount) getCount = nullptr;
  decltype(&::cuDeviceGet) get = nullptr;
  decltype(&::cuDeviceGetName) getName = nullptr;
  decltype(&::cuDeviceGetAttribute) getAttribute = nullptr;
  decltype(&::cuGetErrorString) getErrorString = nullptr;

  llvm::Error load() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return makeError("cannot load the CUDA driver (libcuda.so.1): " + llvm::Twine(dlerror()) +
                       "; source=device needs an NVIDIA driver and GPU, use gpu= or "
                       "chip= instead");
    auto sym = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      return fn != nullptr;
    };
    if (!sym(init, "cuInit") || !sym(getCount, "cuDeviceGetCount") || !sym(get, "cuDeviceGet") ||
        !sym(getName, "cuDeviceGetName") || !sym(getAttribute, "cuDeviceGetAttribute") ||
        !sym(getErrorString, "cuGetErrorString"))
      return makeError("the CUDA driver library lacks a required entry point");
    return llvm::Error::success();
  }

  llvm::Error check(CUresult result, const char *what) {
    if (result == CUDA_SUCCESS)
      return llvm::Error::success();
    const char *text = nullptr;
    getErrorString(result, &text);
    return makeError(llvm::formatv("{0} failed: {1}", what, text ? text : "unknown error"));
  }
};
} // namespace

llvm::Expected<DeviceCapabilities> mlir::ks::queryDevice(int ordinal) {
  DriverAPI api;
  if (llvm::Error err = api.load())
    return std::move(err);
  if (llvm::Error err = api.check(api.init(0), "cuInit"))
    return std::move(err);
  int count = 0;
  if (llvm::Error err = api.check(api.getCount(&count), "cuDeviceGetCount"))
    return std::move(err);
  if (ordinal < 0 || ordinal >= count)
    return makeError(llvm::formatv("no CUDA device {0}: this machine has {1}", ordinal, count));
  CUdevice dev;
  if (llvm::Error err = api.check(api.get(&dev, ordinal), "cuDeviceGet"))
    return std::move(err);

  DeviceCapabilities result;
  char name[256] = {0};
  if (llvm::Error err = api.check(api.getName(name, sizeof(name), dev), "cuDeviceGetName"))
    return std::move(err);
  result.sku = name;

  llvm::Error pending = llvm::Error::success();
  auto attr = [&](CUdevice_attribute which, const char *what) -> int64_t {
    int value = 0;
    if (llvm::Error err = api.check(api.getAttribute(&value, which, dev), what))
      pending = llvm::joinErrors(std::move(pending), std::move(err));
    return value;
  };
  int64_t major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
  int64_t minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
  result.chip = llvm::formatv("sm_{0}{1}", major, minor).str();
  const ArchEntry *known = lookupGPU(result.sku);
  const ArchEntry *chipDefault = lookupDefaultGPUForChip(result.chip);
  if (!known && !chipDefault)
    return makeError(llvm::formatv("device {0} ('{1}') is {2}, which KernelSkill does not "
                                   "support; supported chips: {3}",
                                   ordinal, result.sku, result.chip, joinKnownChips()));
  const ArchEntry &base = known ? *known : *chipDefault;

  GPUCapabilities &c = result.caps;
  c = base.caps; // families and rates; the limits below replace the rest
  c.smCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  c.warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size");
  c.maxThreadsPerSM = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, "threads/SM");
  c.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "threads/block");
  c.maxBlocksPerSM = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, "blocks/SM");
  c.regsPerSM = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, "registers/SM");
  c.regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "registers/block");
  c.smemPerSM = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "smem/SM");
  c.smemPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "smem/block");
  c.smemPerBlockOptin =
      attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "smem/block opt-in");
  c.smemReservedPerBlock =
      attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, "reserved smem/block");
  c.l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size");
  int64_t clockKHz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "clock rate");
  int64_t memClockKHz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "memory clock");
  int64_t busBits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "bus width");
  if (!attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, "cluster launch"))
    c.maxClusterSize = 1;
  if (pending)
    return std::move(pending);
  if (clockKHz > 0)
    c.smClockMHz = clockKHz / 1000;

  if (known) {
    result.ratesNote = llvm::formatv("peak rates and DRAM bandwidth from the database entry "
                                     "'{0}'",
                                     known->key);
  } else {
    // Unknown product of a known chip: scale the default entry's rates by
    // SM count x clock, and derive bandwidth from the memory interface
    // (double data rate).
    double scale = double(c.smCount * c.smClockMHz) /
                   double(base.caps.smCount * base.caps.smClockMHz);
    for (double GPUCapabilities::*rate :
         {&GPUCapabilities::fp32TFlops, &GPUCapabilities::fp64TFlops,
          &GPUCapabilities::tf32TFlops, &GPUCapabilities::fp16TFlops,
          &GPUCapabilities::bf16TFlops, &GPUCapabilities::fp8TFlops})
      c.*rate = base.caps.*rate * scale;
    if (memClockKHz > 0 && busBits > 0)
      c.dramGBps = 2.0 * memClockKHz * 1e3 * (busBits / 8.0) / 1e9;
    result.ratesNote = llvm::formatv("'{0}' is not in the database: peak rates scaled from "
                                     "'{1}' by SM count x clock (x{2:F2}); bandwidth from the "
                                     "memory clock and bus width",
                                     result.sku, base.key, scale);
  }
  if (std::optional<std::string> problem = checkCapabilities(c))
    return makeError("the driver reported an inconsistent capability list: " + *problem);
  return result;
}

#else // !KS_HAVE_CUDA_TOOLKIT

llvm::Expected<DeviceCapabilities> mlir::ks::queryDevice(int) {
  return makeError("this ks-opt was built without the CUDA toolkit, so source=device is "
                   "unavailable; rebuild with the toolkit (cmake -DKS_CUDA_ROOT=...) or use "
                   "gpu= or chip=");
}

#endif // KS_HAVE_CUDA_TOOLKIT
