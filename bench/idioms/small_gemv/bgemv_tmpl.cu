// Small-batch GEMV with the batch size a template parameter (1, 2, 4 or 8, dispatched by a switch):
// y[b][m] = sum_k W[m][k] * x[b][k], W row-major M x K; one thread per row m, accumulators unrolled.
template <int BATCH>
__global__ void bgemv_tmpl(const float *W, const float *x, float *y, int M, int K) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= M)
    return;
  float acc[BATCH];
#pragma unroll
  for (int b = 0; b < BATCH; ++b)
    acc[b] = 0.0f;
  const float *wrow = W + (long long)m * K;
  for (int k = 0; k < K; ++k) {
    float wv = wrow[k];
#pragma unroll
    for (int b = 0; b < BATCH; ++b)
      acc[b] += wv * x[b * K + k];
  }
#pragma unroll
  for (int b = 0; b < BATCH; ++b)
    y[b * M + m] = acc[b];
}

void launch_bgemv_tmpl(const float *W, const float *x, float *y, int B, int M, int K) {
  int threads = 256;
  int blocks = (M + threads - 1) / threads;
  switch (B) {
  case 1: bgemv_tmpl<1><<<blocks, threads>>>(W, x, y, M, K); break;
  case 2: bgemv_tmpl<2><<<blocks, threads>>>(W, x, y, M, K); break;
  case 4: bgemv_tmpl<4><<<blocks, threads>>>(W, x, y, M, K); break;
  case 8: bgemv_tmpl<8><<<blocks, threads>>>(W, x, y, M, K); break;
  default: break;  // other batch sizes not supported
  }
}
