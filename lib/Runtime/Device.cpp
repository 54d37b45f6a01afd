//===- Device.cpp - Loading, launching and timing kernels -----------------===//

#include "kernelskill/Runtime/Device.h"
#include "kernelskill/Runtime/KernelName.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace mlir::ks::runtime;

std::string mlir::ks::runtime::describe(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

static std::string versionString(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

bool mlir::ks::runtime::openDevice(int ordinal, DeviceInfo &info, std::string &error) {
  // Compile PTX when it is loaded, so a bad module fails there with its JIT
  // log rather than later as a missing kernel (lazy loading is the default).
  setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    error = "no usable CUDA GPU: " + describe(err);
    return false;
  }
  if (ordinal < 0 || ordinal >= count) {
    error = "no CUDA device " + std::to_string(ordinal) + ": this machine has " +
            std::to_string(count);
    return false;
  }
  if ((err = cudaSetDevice(ordinal)) != cudaSuccess || (err = cudaFree(nullptr)) != cudaSuccess) {
    error = "cannot use CUDA device " + std::to_string(ordinal) + ": " + describe(err);
    return false;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, ordinal);
  info.ordinal = ordinal;
  info.name = prop.name;
  info.chip = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  info.smCount = prop.multiProcessorCount;
  info.l2Bytes = prop.l2CacheSize;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  info.driverVersion = versionString(driver);
  info.runtimeVersion = versionString(runtime);
  return true;
}

/// The driver's JIT error log for a PTX image. Library loading compiles
/// lazily, so when a kernel of a bad module is first fetched only an error
/// code comes back; loading the image once more as a module, through the
/// driver entry point that cudart exposes, yields ptxas's message.
static std::string driverJitLog(const std::string &image) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuModuleLoadDataEx", &fn, 12000, cudaEnableDefault,
                                       &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return "";
  auto load = reinterpret_cast<decltype(&cuModuleLoadDataEx)>(fn);
  std::vector<char> log(1 << 16, 0);
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.data(), reinterpret_cast<void *>(log.size())};
  CUmodule module = nullptr;
  if (load(&module, image.data(), 2, options, values) == CUDA_SUCCESS) {
    void *unload = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuModuleUnload", &unload, 12000, cudaEnableDefault,
                                         &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      reinterpret_cast<decltype(&cuModuleUnload)>(unload)(module);
  }
  return log.data();
}

bool mlir::ks::runtime::loadKernel(const std::string &path, const std::string &kernelName,
                                   LoadedKernel &out, std::string &error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = "cannot read " + path;
    return false;
  }
  std::string image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  bool isCubin = image.size() > 4 && image.compare(0, 4, "\x7f" "ELF") == 0;
  if (!isCubin)
    image.push_back('\0'); // PTX must be NUL-terminated
  std::vector<char> infoLog(1 << 16, 0), errorLog(1 << 16, 0);
  cudaJitOption options[] = {cudaJitInfoLogBuffer, cudaJitInfoLogBufferSizeBytes,
                             cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes,
                             cudaJitLogVerbose};
  void *values[] = {infoLog.data(), reinterpret_cast<void *>(infoLog.size()), errorLog.data(),
                    reinterpret_cast<void *>(errorLog.size()), reinterpret_cast<void *>(1)};
  cudaError_t err = cudaLibraryLoadData(&out.library, image.data(), options, values,
                                        isCubin ? 0 : 5, nullptr, nullptr, 0);
  out.jitLog = infoLog.data();
  if (err != cudaSuccess) {
    error = "cannot load " + path + ": " + describe(err);
    if (errorLog[0])
      error += "\nJIT log:\n" + std::string(errorLog.data());
    return false;
  }
  err = cudaLibraryGetKernel(&out.kernel, out.library, kernelName.c_str());
  if (err != cudaSuccess && err != cudaErrorInvalidPtx && err != cudaErrorJitCompilerNotFound) {
    // A kernel of C++ linkage (KernelName.h): its mangled symbol.
    cudaGetLastError();
    unsigned count = 0;
    std::vector<std::string> symbols;
    if (cudaLibraryGetKernelCount(&count, out.library) == cudaSuccess && count) {
      std::vector<cudaKernel_t> kernels(count);
      cudaLibraryEnumerateKernels(kernels.data(), count, out.library);
      for (cudaKernel_t k : kernels) {
        const char *name = nullptr;
        if (cudaFuncGetName(&name, reinterpret_cast<const void *>(k)) == cudaSuccess && name)
          symbols.push_back(name);
      }
    }
    std::string mangled = mangledSymbolOf(symbols, kernelName);
    if (!mangled.empty())
      err = cudaLibraryGetKernel(&out.kernel, out.library, mangled.c_str());
  }
  if (err != cudaSuccess) {
    if (err == cudaErrorInvalidPtx || err == cudaErrorJitCompilerNotFound) {
      std::string log = errorLog[0] ? std::string(errorLog.data()) : driverJitLog(image);
      error = "cannot load " + path + ": " + describe(err) + "\nJIT log:\n" + log;
      return false;
    }
    error = "no kernel '" + kernelName + "' in " + path + " (" + describe(err) + ")";
    unsigned count = 0;
    if (cudaLibraryGetKernelCount(&count, out.library) == cudaSuccess && count) {
      std::vector<cudaKernel_t> kernels(count);
      cudaLibraryEnumerateKernels(kernels.data(), count, out.library);
      error += "; it has:";
      for (cudaKernel_t k : kernels) {
        const char *name = nullptr;
        if (cudaFuncGetName(&name, reinterpret_cast<const void *>(k)) == cudaSuccess && name)
          error += std::string(" ") + name;
      }
    }
    return false;
  }
  cudaFuncAttributes attrs;
  if ((err = cudaFuncGetAttributes(&attrs, reinterpret_cast<const void *>(out.kernel))) !=
      cudaSuccess) {
    error = "cannot query kernel '" + kernelName + "': " + describe(err);
    return false;
  }
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(reinterpret_cast<const void *>(out.kernel), i, &offset, &size) !=
        cudaSuccess) {
      cudaGetLastError(); // past the last parameter: not a sticky error
      break;
    }
    out.paramSizes.push_back(size);
  }
  out.numRegs = attrs.numRegs;
  out.staticSmem = int(attrs.sharedSizeBytes);
  out.localBytes = int(attrs.localSizeBytes);
  out.maxThreadsPerBlock = attrs.maxThreadsPerBlock;
  return true;
}

cudaError_t mlir::ks::runtime::launch(const LoadedKernel &k, std::array<int64_t, 3> grid,
                                      std::array<int64_t, 3> block, int64_t smem,
                                      std::vector<KernelArg> &args, cudaStream_t stream) {
  const void *fn = reinterpret_cast<const void *>(k.kernel);
  if (smem > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(smem));
    if (err != cudaSuccess)
      return err;
  }
  std::vector<void *> pointers;
  for (KernelArg &a : args)
    pointers.push_back(a.bytes.data());
  return cudaLaunchKernel(fn, dim3(unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2])),
                          dim3(unsigned(block[0]), unsigned(block[1]), unsigned(block[2])),
                          pointers.data(), size_t(smem), stream);
}
