// Kernels that once broke the analyses (review of the profiler, 2026-11-29).
// GROUND TRUTH (each launched with one block of 64 threads unless said):
// line 10: bool buffer, row-per-thread: 1-byte elements strided by n (no crash; 32 sectors).
// line 15: 64-bit division that overflows (INT64_MIN / -1): unknown, no crash.
// line 21: loop with break at stop: stop iterations of the store, 2 warps -> 2*stop requests.
// line 27: integer carried through a long loop (k += 2): y[k + tid] stays coalesced.
// lines 32-33: 8-byte shared accesses s[2*t]: 2-way conflict; s[32*t]: 16-way.
__global__ void bools(const bool *m, int *out, int n) {
  int tid = threadIdx.x, c = 0;
  for (int i = 0; i < n; ++i) c += m[tid * n + i];
  out[tid] = c;
}
__global__ void overflow(long long *y, long long a, long long b) {
  long long q = a / b;
  y[(q & 255) + threadIdx.x] = q;
}
__global__ void early_break(float *y, int n, int m, int stop) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < m; j++) {
    if (j == stop) break;
    y[j * n + row] = 1.0f;
  }
}
__global__ void carried(float *y, int n) {
  int k = 0;
  for (int j = 0; j < n; ++j) k += 2;
  y[k + threadIdx.x] = 2.0f;
}
__global__ void wide_shared(double *out) {
  __shared__ double s[64 * 32];
  int t = threadIdx.x;
  s[2 * t] = 1.0;
  s[32 * t] = 2.0;
  __syncthreads();
  out[t] = s[t];
}
void launch_all(const bool *m, int *c, long long *z, float *y, double *d, int n, int stop,
                long long a, long long b) {
  bools<<<1, 64>>>(m, c, n);
  overflow<<<1, 64>>>(z, a, b);
  early_break<<<1, 64>>>(y, n, 100000, stop);
  carried<<<1, 64>>>(y, n);
  wide_shared<<<1, 64>>>(d);
}
