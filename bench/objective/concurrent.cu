// Throughput of one exported kernel launched from several host threads at
// once, each on its own per-thread default stream (nvcc --default-stream
// per-thread): what objective=throughput optimizes for (docs/Agents.md,
// "Objective"). Build with the exported file included first:
//
//   nvcc -O3 -arch=sm_90 --default-stream per-thread -std=c++17 \
//        -include EXPORTED.cu bench/objective/concurrent.cu -o run
//   ./run M N K STREAMS REPS
//
// The exported file defines launch_gemm_nn(A, B, C, M, N, K) (ks optimize
// on bench/contraction/gemm_nn.cu). Before timing, the result is verified at
// M x N x K and at an odd size: C poisoned with NaN, every entry must be
// written and finite, 512 sampled entries within 1e-4 of the double-precision
// dot product (relative to sum |a||b|). Prints one JSON line.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));              \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

struct Buffers {
  float *a = nullptr, *b = nullptr, *c = nullptr;
  std::vector<float> ha, hb;
  Buffers(int m, int n, int k, unsigned seed) : ha(size_t(m) * k), hb(size_t(k) * n) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    for (float &x : ha) x = u(rng);
    for (float &x : hb) x = u(rng);
    CHECK(cudaMalloc(&a, ha.size() * 4));
    CHECK(cudaMalloc(&b, hb.size() * 4));
    CHECK(cudaMalloc(&c, size_t(m) * n * 4));
    CHECK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  }
  ~Buffers() { cudaFree(a); cudaFree(b); cudaFree(c); }
};

static bool verify(int m, int n, int k) {
  Buffers buf(m, n, k, 1234u + unsigned(m));
  CHECK(cudaMemset(buf.c, 0xFF, size_t(m) * n * 4)); // NaN
  launch_gemm_nn(buf.a, buf.b, buf.c, m, n, k);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> hc(size_t(m) * n);
  CHECK(cudaMemcpy(hc.data(), buf.c, hc.size() * 4, cudaMemcpyDeviceToHost));
  for (float x : hc)
    if (!std::isfinite(x)) {
      std::fprintf(stderr, "verify %dx%dx%d: an entry unwritten or not finite\n", m, n, k);
      return false;
    }
  std::mt19937 rng(7);
  double worst = 0;
  for (int s = 0; s < 512; ++s) {
    int i = int(rng() % unsigned(m)), j = int(rng() % unsigned(n));
    double ref = 0, mag = 0;
    for (int p = 0; p < k; ++p) {
      double t = double(buf.ha[size_t(i) * k + p]) * double(buf.hb[size_t(p) * n + j]);
      ref += t;
      mag += std::fabs(t);
    }
    worst = std::max(worst, std::fabs(hc[size_t(i) * n + j] - ref) / mag);
  }
  std::fprintf(stderr, "verify %dx%dx%d: worst sampled error %.2e of sum|a||b|\n", m, n, k, worst);
  return worst < 1e-4;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s M N K STREAMS REPS\n", argv[0]);
    return 2;
  }
  int m = std::atoi(argv[1]), n = std::atoi(argv[2]), k = std::atoi(argv[3]);
  int streams = std::atoi(argv[4]), reps = std::atoi(argv[5]);
  if (!verify(m, n, k) || !verify(m - 6 | 1, n - 6 | 1, k - 1))
    return 1;
  std::vector<Buffers *> bufs;
  for (int s = 0; s < streams; ++s)
    bufs.push_back(new Buffers(m, n, k, unsigned(s)));
  auto work = [&](int s, int count) {
    for (int r = 0; r < count; ++r)
      launch_gemm_nn(bufs[s]->a, bufs[s]->b, bufs[s]->c, m, n, k);
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  };
  auto wave = [&](int count) {
    std::vector<std::thread> threads;
    auto start = std::chrono::steady_clock::now();
    for (int s = 0; s < streams; ++s)
      threads.emplace_back(work, s, count);
    for (std::thread &t : threads)
      t.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  wave(3); // warm up: contexts, modules, clocks
  std::vector<double> times;
  for (int trial = 0; trial < 5; ++trial)
    times.push_back(wave(reps));
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  CHECK(cudaGetLastError());
  std::printf("{\"M\": %d, \"N\": %d, \"K\": %d, \"streams\": %d, \"reps\": %d, "
              "\"median_s\": %.6f, \"gemms_per_ms\": %.4f, \"ms_per_gemm\": %.5f}\n",
              m, n, k, streams, reps, median, streams * reps / (median * 1e3),
              median * 1e3 / (streams * reps));
  for (Buffers *b : bufs)
    delete b;
  return 0;
}
