// Which hand-written column-sum shapes clear 0.80 of the copy bandwidth on this
// GPU, and what keeps ours (simt_row_reduction interleaved, 32 columns per
// block of 1024 threads: 128 blocks for 4096 columns, one per SM) at 0.79-0.80?
// A probe, not a benchmark of ours: nvcc compiles each variant; each is timed
// with CUDA events (median of 30 after 3 warm-ups) next to a device-to-device
// copy of the same bytes, and checked against the naive kernel's output
// (relative error; the split variants add partial sums in another order).
//
//   nvcc -O3 -arch=sm_90 -o /tmp/colsum_probe bench/memory/colsum_probe.cu
//   /tmp/colsum_probe [rows cols]      # prints one line per variant
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "probe_timing.cuh"

// bench/memory/col_sum.cu's kernel: one thread per column.
__global__ void naive(const float *x, float *y, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float acc = 0.f;
  for (int r = 0; r < rows; ++r) acc += x[r * cols + c];
  y[c] = acc;
}

// Ours today: R columns per block, T threads per column R apart (thread
// l * R + g), U loads in flight per thread, partials through shared memory.
// SPLIT > 1: gridDim.y chunks of the rows, each block's total added to y
// atomically (y zeroed first).
template <int T, int R, int U, bool SPLIT>
__global__ void __launch_bounds__(T * R) interleaved(const float *x, float *y, int rows,
                                                     int cols) {
  __shared__ float part[T * R];
  int g = threadIdx.x % R, l = threadIdx.x / R;
  int c = blockIdx.x * R + g;
  bool live = c < cols;
  int cc = live ? c : cols - 1;
  int chunk = SPLIT ? (rows + gridDim.y - 1) / gridDim.y : rows;
  int r0 = SPLIT ? blockIdx.y * chunk : 0;
  int r1 = min(rows, r0 + chunk);
  float acc = 0.f;
  for (int r = r0 + l; r < r1; r += T * U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      int rr = r + u * T;
      acc += rr < r1 ? x[(size_t)rr * cols + cc] : 0.f;
    }
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  if (l == 0 && live) {
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < T; ++k) s += part[k * R + g];
    if (SPLIT)
      atomicAdd(&y[c], s);
    else
      y[c] = s;
  }
}

// 128-bit loads: each thread four adjacent columns (cols % 4 == 0 here), R4
// float4 columns per block, T threads per column group, U loads in flight;
// gridDim.y chunks of the rows added atomically.
template <int T, int R4, int U>
__global__ void __launch_bounds__(T * R4) vec4(const float *x, float *y, int rows, int cols) {
  __shared__ float4 part[T * R4];
  int g = threadIdx.x % R4, l = threadIdx.x / R4;
  int c = (blockIdx.x * R4 + g) * 4;
  bool live = c < cols;
  int cc = live ? c : 0;
  int chunk = (rows + gridDim.y - 1) / gridDim.y;
  int r0 = blockIdx.y * chunk, r1 = min(rows, r0 + chunk);
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int r = r0 + l; r < r1; r += T * U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      int rr = r + u * T;
      if (rr < r1) {
        float4 v = *reinterpret_cast<const float4 *>(x + (size_t)rr * cols + cc);
        acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
      }
    }
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  if (l == 0 && live) {
    float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int k = 0; k < T; ++k) {
      float4 p = part[k * R4 + g];
      s.x += p.x; s.y += p.y; s.z += p.z; s.w += p.w;
    }
    atomicAdd(&y[c], s.x); atomicAdd(&y[c + 1], s.y);
    atomicAdd(&y[c + 2], s.z); atomicAdd(&y[c + 3], s.w);
  }
}


int main(int argc, char **argv) {
  int rows = argc > 2 ? std::atoi(argv[1]) : 16384, cols = argc > 2 ? std::atoi(argv[2]) : 4096;
  size_t n = (size_t)rows * cols, bytes = n * 4 + (size_t)cols * 4;
  std::vector<float> hx(n);
  srand(1);
  for (auto &v : hx) v = (float)rand() / RAND_MAX - 0.5f;
  float *x, *y, *ref, *copy;
  CHECK(cudaMalloc(&x, n * 4));
  CHECK(cudaMalloc(&copy, bytes));
  CHECK(cudaMalloc(&y, cols * 4));
  CHECK(cudaMalloc(&ref, cols * 4));
  CHECK(cudaMemcpy(x, hx.data(), n * 4, cudaMemcpyHostToDevice));
  naive<<<(cols + 127) / 128, 128>>>(x, ref, rows, cols);
  std::vector<float> hr(cols), hy(cols);
  CHECK(cudaMemcpy(hr.data(), ref, cols * 4, cudaMemcpyDeviceToHost));
  // The copy moves `bytes` (read once, written once), as ks-bench's baseline
  // counts for a kernel whose bytes are `bytes`: half of them each way.
  float copy_ms = medianMs([&] { cudaMemcpyAsync(copy, x, bytes / 2, cudaMemcpyDeviceToDevice); }, 30);
  double copy_rate = bytes / copy_ms;
  std::printf("rows %d cols %d: copy of %zu bytes %.4f ms\n", rows, cols, bytes / 2, copy_ms);
  auto run = [&](const char *name, auto launch) {
    CHECK(cudaMemset(y, 0xff, cols * 4));  // poison (NaN)
    launch();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hy.data(), y, cols * 4, cudaMemcpyDeviceToHost));
    double err = 0, norm = 0;
    for (int c = 0; c < cols; ++c) {
      err += (hy[c] - hr[c]) * (double)(hy[c] - hr[c]);
      norm += hr[c] * (double)hr[c];
    }
    double rel = std::sqrt(err / std::max(norm, 1e-30));
    float ms = medianMs(launch, 30);
    std::printf("%-28s %.4f ms  %.2f of copy  rel_l2 %.1e %s\n", name, ms, bytes / ms / copy_rate,
                rel, rel < 1e-5 ? "ok" : "MISMATCH");
  };
  run("naive", [&] { naive<<<(cols + 127) / 128, 128>>>(x, y, rows, cols); });
#define INTER(T, R, U, S)                                                            \
  run("interleaved T" #T " R" #R " U" #U " S" #S, [&] {                              \
    if (S > 1) cudaMemsetAsync(y, 0, cols * 4);                                      \
    interleaved<T, R, U, (S > 1)><<<dim3((cols + R - 1) / R, S), T * R>>>(x, y, rows, cols); \
  })
  INTER(32, 32, 16, 1);
  INTER(32, 32, 8, 1);
  INTER(32, 32, 16, 2);
  INTER(32, 32, 8, 2);
  INTER(32, 32, 8, 4);
  INTER(16, 32, 16, 2);
  INTER(16, 32, 8, 4);
  INTER(8, 32, 16, 4);
  INTER(8, 32, 8, 8);
  INTER(16, 64, 8, 2);
  INTER(8, 64, 8, 4);
  INTER(8, 128, 8, 4);
  INTER(4, 128, 8, 8);
#define VEC(T, R4, U, S)                                                             \
  run("vec4 T" #T " R4 " #R4 " U" #U " S" #S, [&] {                                  \
    cudaMemsetAsync(y, 0, cols * 4);                                                 \
    vec4<T, R4, U><<<dim3((cols / 4 + R4 - 1) / R4, S), T * R4>>>(x, y, rows, cols); \
  })
  if (cols % 4 == 0) {
    VEC(8, 32, 8, 4);
    VEC(8, 32, 4, 8);
    VEC(16, 32, 4, 4);
    VEC(4, 64, 8, 8);
    VEC(8, 64, 4, 4);
    VEC(32, 32, 4, 1);
    VEC(32, 32, 4, 2);
  }
  return 0;
}
