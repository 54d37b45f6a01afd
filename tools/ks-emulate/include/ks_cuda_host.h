//===- ks_cuda_host.h - Run exported CUDA C++ on the CPU -------*- C++ -*-===//
//
// Enough of CUDA for the kernels ks-translate --export-cuda writes to run on
// the host, one block at a time, one std::thread per CUDA thread: blocks and
// thread indices, __syncthreads as a std::barrier, __shared__ as storage
// shared by the block's threads, warp shuffles through a per-warp exchange,
// atomics through std::atomic_ref, cuda_pipeline.h's cp.async as a copy.
// It checks semantics, not speed: CI has no GPU, and this is how the
// transforms' kernels are verified there (tools/ks-emulate/ks-emulate.py).
//
// Limits: full-warp shuffles only; halves compute in float and round
// (ks_cuda_half.h); blocks run one after the
// other (a kernel that waits for another block would hang, as it may on a
// GPU).
//
//===----------------------------------------------------------------------===//
#ifndef KS_CUDA_HOST_H
#define KS_CUDA_HOST_H

#include <algorithm>
#include <atomic>
#include <barrier>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned long long x = 1, unsigned long long y = 1, unsigned long long z = 1)
      : x(unsigned(x)), y(unsigned(y)), z(unsigned(z)) {}
};
struct uint3 {
  unsigned x, y, z;
};

#define KS_VECTOR(T, N2, N4)                                                                       \
  struct N2 { T x, y; };                                                                           \
  struct N4 { T x, y, z, w; };                                                                     \
  inline N2 make_##N2(T x, T y) { return {x, y}; }                                                 \
  inline N4 make_##N4(T x, T y, T z, T w) { return {x, y, z, w}; }
KS_VECTOR(float, float2, float4)
KS_VECTOR(double, double2, double4)
KS_VECTOR(int, int2, int4)
KS_VECTOR(unsigned, uint2, uint4)
#undef KS_VECTOR

namespace ks_emu {
struct Warp {
  explicit Warp(int lanes) : lanes(lanes), barrier(lanes), slots(32) {}
  unsigned lanes; ///< threads of the block in this warp (the last may have fewer)
  std::barrier<> barrier;
  std::vector<uint64_t> slots;
};
inline thread_local uint3 threadIdx_, blockIdx_;
inline thread_local unsigned linear_;
inline dim3 blockDim_, gridDim_;
inline std::barrier<> *block_ = nullptr;
inline std::vector<std::unique_ptr<Warp>> warps_;
/// extern __shared__ memory: one buffer, sized by the launch, that the
/// block's threads share (16-byte aligned, as the GPU's is at least).
struct alignas(16) SharedChunk {
  unsigned char bytes[16];
};
inline std::vector<SharedChunk> dynamicShared_;
inline void *dynamic_shared() { return dynamicShared_.data(); }

template <typename T> T exchange(T v, unsigned source) {
  Warp &w = *warps_[linear_ / 32];
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  w.slots[linear_ % 32] = bits;
  w.barrier.arrive_and_wait();
  T r;
  std::memcpy(&r, &w.slots[source % 32], sizeof(T));
  w.barrier.arrive_and_wait();
  return r;
}

/// An argument as the kernel's parameter type: a buffer of another signedness
/// (unsigned bins for an int * parameter) as CUDA's launch passes its bits.
template <typename P, typename A> P argument(A a) {
  if constexpr (std::is_pointer_v<P> && std::is_pointer_v<A>)
    return reinterpret_cast<P>(a);
  else
    return static_cast<P>(a);
}

/// Calls a host function (a launcher) with each argument as its parameter
/// type, as `argument` does for kernels.
template <typename... P, typename... A> void call(void (*fn)(P...), A... args) {
  fn(argument<P>(args)...);
}

/// Runs kernel<<<grid, block, smem>>>(args...) to completion.
template <typename... P, typename... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, unsigned long long smem, A... args) {
  dynamicShared_.assign((smem + 15) / 16, SharedChunk{});
  gridDim_ = grid;
  blockDim_ = block;
  unsigned n = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        std::barrier<> barrier(n);
        block_ = &barrier;
        warps_.clear();
        for (unsigned w = 0; w * 32 < n; ++w)
          warps_.push_back(std::make_unique<Warp>(std::min(32u, n - w * 32)));
        std::vector<std::thread> threads;
        threads.reserve(n);
        for (unsigned t = 0; t < n; ++t)
          threads.emplace_back([&, t] {
            threadIdx_ = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
            blockIdx_ = {bx, by, bz};
            linear_ = t;
            kernel(argument<P>(args)...);
            // An exited thread no longer takes part in barriers.
            barrier.arrive_and_drop();
            warps_[t / 32]->barrier.arrive_and_drop();
          });
        for (std::thread &t : threads)
          t.join();
      }
}
} // namespace ks_emu

#define threadIdx ks_emu::threadIdx_
#define blockIdx ks_emu::blockIdx_
#define blockDim ks_emu::blockDim_
#define gridDim ks_emu::gridDim_
#define __global__
#define __device__
#define __constant__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))

// What host launchers call around their launches: module variables are
// ordinary host variables here.
using cudaError_t = int;
constexpr cudaError_t cudaSuccess = 0;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
template <typename T>
cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t count, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  std::memcpy(reinterpret_cast<char *>(&symbol) + offset, src, count);
  return cudaSuccess;
}
template <typename T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  std::memcpy(dst, reinterpret_cast<const char *>(&symbol) + offset, count);
  return cudaSuccess;
}

inline void __syncthreads() { ks_emu::block_->arrive_and_wait(); }
// The lanes of the mask are those of the whole warp here (tiles of a warp
// synchronize in step with it, as the emulated kernels do).
inline void __syncwarp(unsigned = 0xffffffffu) {
  ks_emu::warps_[ks_emu::linear_ / 32]->barrier.arrive_and_wait();
}

template <typename T> T __shfl_xor_sync(unsigned, T v, int mask, int width = 32) {
  unsigned lane = ks_emu::linear_ % 32;
  return ks_emu::exchange(v, ((lane ^ unsigned(mask)) & unsigned(width - 1)) | (lane & ~unsigned(width - 1)));
}
template <typename T> T __shfl_down_sync(unsigned, T v, int delta, int width = 32) {
  unsigned lane = ks_emu::linear_ % 32, base = lane & ~unsigned(width - 1);
  unsigned src = lane + unsigned(delta);
  return ks_emu::exchange(v, src < base + unsigned(width) ? src : lane);
}
template <typename T> T __shfl_up_sync(unsigned, T v, int delta, int width = 32) {
  unsigned lane = ks_emu::linear_ % 32, base = lane & ~unsigned(width - 1);
  return ks_emu::exchange(v, lane >= base + unsigned(delta) ? lane - unsigned(delta) : lane);
}
template <typename T> T __shfl_sync(unsigned, T v, int src, int width = 32) {
  unsigned lane = ks_emu::linear_ % 32, base = lane & ~unsigned(width - 1);
  return ks_emu::exchange(v, base + (unsigned(src) & unsigned(width - 1)));
}

namespace ks_emu {
/// The lanes of this warp whose `bits` satisfy `keep` (every thread of the
/// warp takes part, as the emulated kernels' warps do).
template <typename Keep> unsigned lanesWhere(uint64_t bits, Keep keep) {
  Warp &w = *warps_[linear_ / 32];
  w.slots[linear_ % 32] = bits;
  w.barrier.arrive_and_wait();
  unsigned m = 0;
  for (unsigned i = 0; i < w.lanes; ++i)
    m |= keep(w.slots[i]) ? 1u << i : 0u;
  w.barrier.arrive_and_wait();
  return m;
}
/// Every lane's predicate as a mask of the warp, and the lanes present.
inline unsigned vote(bool p) {
  return lanesWhere(p, [](uint64_t other) { return other != 0; });
}
inline unsigned present() {
  unsigned n = warps_[linear_ / 32]->lanes;
  return n == 32 ? ~0u : (1u << n) - 1;
}
} // namespace ks_emu
inline unsigned __ballot_sync(unsigned mask, int p) { return ks_emu::vote(p) & mask; }
inline int __any_sync(unsigned mask, int p) { return (ks_emu::vote(p) & mask) != 0; }
inline int __all_sync(unsigned mask, int p) {
  return (ks_emu::vote(p) & mask) == (mask & ks_emu::present());
}
/// The lanes of the mask whose v has the same bits as this lane's.
template <typename T> unsigned __match_any_sync(unsigned mask, T v) {
  static_assert(sizeof(T) <= sizeof(uint64_t));
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return ks_emu::lanesWhere(bits, [bits](uint64_t other) { return other == bits; }) & mask;
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x ? __builtin_clz(unsigned(x)) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1)
    r = (r << 1) | (x & 1);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(unsigned(x))) << 32) | __brev(unsigned(x >> 32));
}

template <typename T> T atomicAdd(T *p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <typename T> T atomicExch(T *p, T v) { return std::atomic_ref<T>(*p).exchange(v); }
template <typename T> T atomicOr(T *p, T v) { return std::atomic_ref<T>(*p).fetch_or(v); }
template <typename T> T atomicAnd(T *p, T v) { return std::atomic_ref<T>(*p).fetch_and(v); }
template <typename T> T atomicMax(T *p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (old < v && !a.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <typename T> T atomicMin(T *p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (v < old && !a.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <typename T> T atomicCAS(T *p, T compare, T v) {
  std::atomic_ref<T>(*p).compare_exchange_strong(compare, v);
  return compare;
}

// cuda_pipeline.h: the copies complete at once.
inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size, size_t zfill = 0) {
  std::memcpy(dst, src, size - zfill);
  std::memset(static_cast<char *>(dst) + size - zfill, 0, zfill);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(size_t) {}

template <typename T, typename U> auto min(T a, U b) { return a < b ? a : b; }
template <typename T, typename U> auto max(T a, U b) { return a < b ? b : a; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
// Loads through the read-only data cache: a plain load on the CPU.
template <typename T> T __ldg(const T *p) { return *p; }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __int_as_float(int x) { float f; std::memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float x) { int i; std::memcpy(&i, &x, 4); return i; }
inline double __longlong_as_double(long long x) { double d; std::memcpy(&d, &x, 8); return d; }
using std::isnan;
using std::signbit;

// The block and warp part of cooperative groups, as the importer takes it
// (lib/Frontend/ImportCooperativeGroups.cpp), so that sources using it run
// here beside their export.
namespace cooperative_groups {
struct thread_block {
  static unsigned thread_rank() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  static unsigned num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
  static unsigned size() { return num_threads(); }
  static void sync() { __syncthreads(); }
};
template <unsigned N, typename Parent = void> struct thread_block_tile {
  unsigned thread_rank() const { return thread_block::thread_rank() & (N - 1); }
  unsigned num_threads() const { return N; }
  unsigned size() const { return N; }
  unsigned meta_group_rank() const { return thread_block::thread_rank() / N; }
  unsigned meta_group_size() const { return (thread_block::num_threads() + N - 1) / N; }
  void sync() const { __syncwarp(); }
  template <typename T> T shfl(T v, int src) const { return __shfl_sync(~0u, v, src, N); }
  template <typename T> T shfl_down(T v, unsigned d) const { return __shfl_down_sync(~0u, v, d, N); }
  template <typename T> T shfl_up(T v, unsigned d) const { return __shfl_up_sync(~0u, v, d, N); }
  template <typename T> T shfl_xor(T v, unsigned m) const { return __shfl_xor_sync(~0u, v, m, N); }
  unsigned first_lane() const { return (thread_block::thread_rank() % 32) & ~(N - 1); }
  unsigned lanes() const { return N == 32 ? ~0u : ((1u << N) - 1) << first_lane(); }
  unsigned ballot(int p) const { return (__ballot_sync(lanes(), p) >> first_lane()) & (N == 32 ? ~0u : (1u << N) - 1); }
  bool any(int p) const { return __any_sync(lanes(), p); }
  bool all(int p) const { return __all_sync(lanes(), p); }
};
inline thread_block this_thread_block() { return {}; }
template <unsigned N, typename P> thread_block_tile<N> tiled_partition(const P &) { return {}; }
template <typename T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less { T operator()(T a, T b) const { return a < b ? a : b; } };
template <typename T> struct greater { T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };
template <typename G, typename T, typename Op> T reduce(const G &g, T v, Op op) {
  for (unsigned o = g.size() / 2; o > 0; o /= 2)
    v = op(v, g.shfl_xor(v, o));
  return v;
}
inline void sync(const thread_block &g) { g.sync(); }
template <unsigned N, typename P> void sync(const thread_block_tile<N, P> &g) { g.sync(); }
} // namespace cooperative_groups

#include "ks_cuda_half.h"

#endif // KS_CUDA_HOST_H
