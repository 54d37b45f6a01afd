//===- ks_launch_trace.h - Record a program's kernel launches on the CPU -*- C++ -*-===//
//
// What tools/ks-emulate/ks-launch-trace.py compiles a whole CUDA program and
// its lifted launchers with, as host C++, to compare the launches they make:
// the CUDA runtime calls a program makes around its kernels, faked on the host
// (device memory is host memory, copies are memcpy, events and streams do
// nothing, the device is an H200 with 132 SMs), and launches that record their
// kernel, grid, block, dynamic shared memory and arguments instead of running.
// Buffers are printed as `buf<ID>+<BYTES>` (ID in allocation order), so a
// launch of the original and of the lifted launcher compare equal when they
// pass the same allocation at the same offset.
//
// Lines written to stdout among the program's own (one event each, after
// "@ks "):
//   scope <SITE>               a host function with launches is entered
//   end                        ... and left
//   param <KEY> <VALUE>        a launcher parameter's value at a launch
//   launch <KERNEL> grid=X,Y,Z block=X,Y,Z smem=N args=A;B;...
//   alloc <ID> <BYTES>         cudaMalloc and friends
//
//===----------------------------------------------------------------------===//
#ifndef KS_LAUNCH_TRACE_H
#define KS_LAUNCH_TRACE_H

#include "ks_cuda_host.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace ks_trace {
struct Allocation {
  int id;
  size_t bytes;
};
/// Fake device allocations by base address.
inline std::map<const char *, Allocation> &allocations() {
  static std::map<const char *, Allocation> all;
  return all;
}
inline int &nextId() {
  static int id = 0;
  return id;
}
/// Allocates `bytes` of zeroed host memory as buffer `id`.
inline void *allocate(size_t bytes, int id) {
  char *p = static_cast<char *>(std::calloc(bytes ? bytes : 1, 1));
  allocations()[p] = {id, bytes};
  if (id >= nextId())
    nextId() = id + 1;
  std::printf("@ks alloc %d %zu\n", id, bytes);
  return p;
}
/// Buffer `id` of the replay (allocated by the lifted side's driver).
inline void *buffer(int id) {
  for (auto &[base, a] : allocations())
    if (a.id == id)
      return const_cast<char *>(base);
  return nullptr;
}

/// A pointer as `buf<ID>+<OFFSET>`, or `host` when it is no fake allocation.
inline std::string pointerText(const void *p) {
  if (!p)
    return "null";
  const char *c = static_cast<const char *>(p);
  auto it = allocations().upper_bound(c);
  if (it != allocations().begin()) {
    --it;
    if (c < it->first + std::max<size_t>(it->second.bytes, 1))
      return "buf" + std::to_string(it->second.id) + "+" + std::to_string(c - it->first);
  }
  return "host";
}

template <typename T> std::string valueText(const T &v) {
  char text[64];
  if constexpr (std::is_pointer_v<T>)
    return pointerText(reinterpret_cast<const void *>(v));
  else if constexpr (std::is_floating_point_v<T>)
    std::snprintf(text, sizeof text, "%.17g", double(v));
  else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>)
    std::snprintf(text, sizeof text, "%lld", (long long)v);
  else
    return "?";
  return text;
}

/// A value the replay passes to a lifted launcher's parameter: a number or a
/// buffer, converted to whatever the parameter's type is.
struct Arg {
  long double number = 0;
  int buffer = -1;
  size_t offset = 0;
  template <typename T> operator T() const {
    if constexpr (std::is_pointer_v<T>)
      return buffer < 0 ? nullptr
                        : reinterpret_cast<T>(static_cast<char *>(ks_trace::buffer(buffer)) + offset);
    else
      return static_cast<T>(number);
  }
};

/// Marks one call of a host function that launches kernels.
struct Scope {
  explicit Scope(const char *site) { std::printf("@ks scope %s\n", site); }
  ~Scope() { std::printf("@ks end\n"); }
};

// By value: deduction drops __restrict__, which std::is_pointer would not.
template <typename T> void param(const char *key, T value) {
  std::printf("@ks param %s %s\n", key, valueText(value).c_str());
}

/// Records kernel<<<grid, block, smem>>>(args...) with each argument converted
/// to the kernel's parameter type, as the launch would pass it.
template <typename... P, typename... A>
void launch(const char *name, void (*)(P...), dim3 grid, dim3 block, unsigned long long smem,
            A... args) {
  std::string text;
  ((text += (text.empty() ? "" : ";") + valueText(ks_emu::argument<P>(args))), ...);
  std::printf("@ks launch %s grid=%u,%u,%u block=%u,%u,%u smem=%llu args=%s\n", name, grid.x, grid.y,
              grid.z, block.x, block.y, block.z, smem, text.c_str());
}
} // namespace ks_trace

// The runtime API the programs call around their kernels.
using cudaStream_t = struct KsStream *;
using cudaEvent_t = struct KsEvent *;
constexpr cudaError_t cudaErrorInvalidValue = 1;
struct cudaDeviceProp {
  char name[256] = "NVIDIA H200 (ks_launch_trace)";
  int multiProcessorCount = 132;
  int maxThreadsPerBlock = 1024;
  int warpSize = 32;
  size_t sharedMemPerBlock = 48 * 1024;
  size_t totalGlobalMem = 143771647ull * 1024;
  int major = 9, minor = 0;
};
template <typename T> cudaError_t cudaMalloc(T **p, size_t bytes) {
  *p = static_cast<T *>(ks_trace::allocate(bytes, ks_trace::nextId()));
  return cudaSuccess;
}
template <typename T> cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned = 1) {
  return cudaMalloc(p, bytes);
}
template <typename T> cudaError_t cudaMallocHost(T **p, size_t bytes) { return cudaMalloc(p, bytes); }
inline cudaError_t cudaFree(void *) { return cudaSuccess; }
inline cudaError_t cudaFreeHost(void *) { return cudaSuccess; }
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                   cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, bytes, kind);
}
inline cudaError_t cudaMemset(void *dst, int value, size_t bytes) {
  std::memset(dst, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *dst, int value, size_t bytes, cudaStream_t = nullptr) {
  return cudaMemset(dst, value, bytes);
}
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline const char *cudaGetErrorString(cudaError_t e) { return e ? "error" : "no error"; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int) {
  *prop = cudaDeviceProp{};
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceCount(int *n) {
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = nullptr;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
  *ms = 1.0f;
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
  *s = nullptr;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

#endif // KS_LAUNCH_TRACE_H
