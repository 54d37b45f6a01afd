// Which hand-written stencil shapes reach 0.75 of the copy bandwidth on this
// GPU? A probe, not a benchmark of ours: nvcc compiles each variant; each is
// timed with CUDA events (median of 20 after 3 warm-ups) next to a
// device-to-device copy of the same bytes, and checked against the naive
// kernel's output (bitwise: every variant sums in the naive kernel's order).
//
//   nvcc -O3 -arch=sm_90 -o /tmp/stencil_probe bench/memory/stencil_probe.cu
//   /tmp/stencil_probe            # prints one line per variant
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#include "probe_timing.cuh"

// --- 2-D 5-point, n rows x m columns ---------------------------------------
// The naive kernels are bench/memory/stencil2d.cu and stencil3d.cu, copied so
// that this file builds alone with nvcc.
__global__ void s2_naive(const float *in, float *out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    out[i * m + j] = in[i * m + j];
    return;
  }
  out[i * m + j] = 0.2f * (in[i * m + j] + in[(i - 1) * m + j] + in[(i + 1) * m + j] +
                           in[i * m + j - 1] + in[i * m + j + 1]);
}

// K consecutive rows per thread; the rows above, at and below the point ride
// in registers from one row to the next.
template <int K>
__global__ void s2_window(const float *__restrict__ in, float *__restrict__ out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i0 = (blockIdx.y * blockDim.y + threadIdx.y) * K;
  if (j >= m || i0 >= n) return;
  float up = i0 > 0 ? in[(i0 - 1) * m + j] : 0.f;
  float c = in[i0 * m + j];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int i = i0 + k;
    if (i >= n) break;
    float dn = i + 1 < n ? in[(i + 1) * m + j] : 0.f;
    float v;
    if (i == 0 || j == 0 || i == n - 1 || j == m - 1)
      v = c;
    else
      v = 0.2f * (c + up + dn + in[i * m + j - 1] + in[i * m + j + 1]);
    out[i * m + j] = v;
    up = c;
    c = dn;
  }
}

// --- 3-D 7-point, n^3 ------------------------------------------------------
__global__ void s3_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= n || y >= n || z >= n) return;
  int s = n * n;
  int p = z * s + y * n + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    out[p] = in[p];
    return;
  }
  out[p] = (1.f / 7.f) * (in[p] + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + in[p - s] +
                          in[p + s]);
}

// K consecutive planes per thread along z, the planes below, at and above
// the point in registers.
template <int K>
__global__ void s3_window(const float *__restrict__ in, float *__restrict__ out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z0 = blockIdx.z * K;
  if (x >= n || y >= n) return;
  int s = n * n;
  int p0 = z0 * s + y * n + x;
  float lo = z0 > 0 ? in[p0 - s] : 0.f;
  float c = in[p0];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int z = z0 + k;
    if (z >= n) break;
    int p = p0 + k * s;
    float hi = z + 1 < n ? in[p + s] : 0.f;
    float v;
    if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
      v = c;
    else
      v = (1.f / 7.f) * (c + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + lo + hi);
    out[p] = v;
    lo = c;
    c = hi;
  }
}

// As s3_window, the column's K + 2 values loaded first (all in flight), as
// simt_halo_tile registers = true generates it.
template <int K>
__global__ void s3_column(const float *__restrict__ in, float *__restrict__ out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z0 = blockIdx.z * K;
  int s = n * n;
  long end = long(s) * n;
  float col[K + 2];
#pragma unroll
  for (int r = 0; r < K + 2; ++r) {
    long f = long(z0 - 1 + r) * s + long(y) * n + x;
    col[r] = f >= 0 && f < end ? in[f] : 0.f;
  }
  if (x >= n || y >= n) return;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int z = z0 + k;
    if (z >= n) break;
    int p = z * s + y * n + x;
    float v;
    if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
      v = col[k + 1];
    else
      v = (1.f / 7.f) * (col[k + 1] + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + col[k] +
                         col[k + 2]);
    out[p] = v;
  }
}

// K points per thread along y, blockDim.y apart (no reuse): the coarsened
// shape of map_forall_to_grid, for comparison.
template <int K>
__global__ void s3_coarse_y(const float *__restrict__ in, float *__restrict__ out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int z = blockIdx.z;
  int s = n * n;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int y = (blockIdx.y * K + k) * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) continue;
    int p = z * s + y * n + x;
    float v;
    if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
      v = in[p];
    else
      v = (1.f / 7.f) * (in[p] + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + in[p - s] +
                         in[p + s]);
    out[p] = v;
  }
}

template <typename F> float timeit(F launch) { return medianMs(launch, 20); }

static float *gIn, *gOut, *gRef;
static size_t gCount;
static float gCopyMs;

template <typename F> void report(const char *name, F launch) {
  CHECK(cudaMemset(gOut, 0xff, gCount * 4)); // poison: NaN
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> a(gCount), r(gCount);
  CHECK(cudaMemcpy(a.data(), gOut, gCount * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r.data(), gRef, gCount * 4, cudaMemcpyDeviceToHost));
  bool same = std::memcmp(a.data(), r.data(), gCount * 4) == 0;
  float ms = timeit(launch);
  std::printf("%-28s %8.3f ms  %.2f of copy  %s\n", name, ms, gCopyMs / ms,
              same ? "same" : "DIFFERENT");
}

int main() {
  const int n2 = 16384, n3 = 512;
  gCount = size_t(n2) * n2; // the larger of the two
  CHECK(cudaMalloc(&gIn, gCount * 4));
  CHECK(cudaMalloc(&gOut, gCount * 4));
  CHECK(cudaMalloc(&gRef, gCount * 4));
  {
    std::vector<float> h(gCount);
    unsigned s = 12345;
    for (auto &v : h) v = float((s = s * 1664525u + 1013904223u) >> 8) / 16777216.f;
    CHECK(cudaMemcpy(gIn, h.data(), gCount * 4, cudaMemcpyHostToDevice));
  }
  // 2-D
  gCopyMs = timeit([&] { cudaMemcpyAsync(gOut, gIn, gCount * 4, cudaMemcpyDeviceToDevice); });
  std::printf("2-D 5-point %dx%d, copy %.3f ms\n", n2, n2, gCopyMs);
  {
    dim3 b(16, 16), g(n2 / 16, n2 / 16);
    s2_naive<<<g, b>>>(gIn, gRef, n2, n2);
    report("naive 16x16", [&] { s2_naive<<<g, b>>>(gIn, gOut, n2, n2); });
  }
  {
    dim3 b(32, 8), g(n2 / 32, n2 / 8);
    report("one point 32x8", [&] { s2_naive<<<g, b>>>(gIn, gOut, n2, n2); });
  }
#define S2W(K, BX, BY)                                                         \
  {                                                                            \
    dim3 b(BX, BY), g((n2 + BX - 1) / BX, (n2 + BY * K - 1) / (BY * K));       \
    report("window y K=" #K " " #BX "x" #BY,                                   \
           [&] { s2_window<K><<<g, b>>>(gIn, gOut, n2, n2); });                \
  }
  S2W(4, 32, 8) S2W(8, 32, 8) S2W(16, 32, 8) S2W(32, 32, 8) S2W(8, 64, 4) S2W(8, 128, 2)
  S2W(16, 128, 1) S2W(8, 256, 1) S2W(16, 64, 4) S2W(4, 128, 2)
  // 3-D
  gCount = size_t(n3) * n3 * n3;
  gCopyMs = timeit([&] { cudaMemcpyAsync(gOut, gIn, gCount * 4, cudaMemcpyDeviceToDevice); });
  std::printf("3-D 7-point %d^3, copy %.3f ms\n", n3, gCopyMs);
  {
    dim3 b(8, 8, 8), g(n3 / 8, n3 / 8, n3 / 8);
    s3_naive<<<g, b>>>(gIn, gRef, n3);
    report("naive 8x8x8", [&] { s3_naive<<<g, b>>>(gIn, gOut, n3); });
  }
  {
    dim3 b(32, 8, 1), g(n3 / 32, n3 / 8, n3);
    report("one point 32x8x1", [&] { s3_naive<<<g, b>>>(gIn, gOut, n3); });
  }
  {
    dim3 b(128, 2, 1), g(n3 / 128, n3 / 2, n3);
    report("one point 128x2x1", [&] { s3_naive<<<g, b>>>(gIn, gOut, n3); });
  }
  {
    dim3 b(32, 8, 1), g(n3 / 32, n3 / 32, n3);
    report("coarse y 4, 32x8", [&] { s3_coarse_y<4><<<g, b>>>(gIn, gOut, n3); });
  }
#define S3W(K, BX, BY)                                                         \
  {                                                                            \
    dim3 b(BX, BY), g(n3 / BX, n3 / BY, (n3 + K - 1) / K);                     \
    report("window z K=" #K " " #BX "x" #BY,                                   \
           [&] { s3_window<K><<<g, b>>>(gIn, gOut, n3); });                    \
  }
  S3W(4, 32, 8) S3W(8, 32, 8) S3W(16, 32, 8) S3W(32, 32, 8) S3W(64, 32, 8) S3W(8, 64, 4)
  S3W(16, 64, 4) S3W(8, 128, 2) S3W(16, 128, 2) S3W(32, 128, 1) S3W(16, 32, 4) S3W(16, 32, 16)
#define S3C(K, BX, BY)                                                         \
  {                                                                            \
    dim3 b(BX, BY), g(n3 / BX, n3 / BY, (n3 + K - 1) / K);                     \
    report("column z K=" #K " " #BX "x" #BY,                                   \
           [&] { s3_column<K><<<g, b>>>(gIn, gOut, n3); });                    \
  }
  S3C(4, 64, 4) S3C(8, 64, 4) S3C(16, 64, 4) S3C(8, 32, 8) S3C(8, 128, 2) S3C(8, 256, 1)
  return 0;
}
