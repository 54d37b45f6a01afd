// colsum_probe.cu's interleaved<32, 32, 16, false>, named as ours.
extern "C" __global__ void __launch_bounds__(1024) col_sum(const float *x, float *y, int rows, int cols) {
  const int T = 32, R = 32, U = 16;
  __shared__ float part[T * R];
  int g = threadIdx.x % R, l = threadIdx.x / R;
  int c = blockIdx.x * R + g;
  bool live = c < cols;
  int cc = live ? c : cols - 1;
  float acc = 0.f;
  for (int r = l; r < rows; r += T * U) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      int rr = r + u * T;
      acc += rr < rows ? x[(size_t)rr * cols + cc] : 0.f;
    }
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  if (l == 0 && live) {
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < T; ++k) s += part[k * R + g];
    y[c] = s;
  }
}
