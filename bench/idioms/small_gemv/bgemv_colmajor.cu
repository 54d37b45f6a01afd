// Small-batch GEMV with W stored column-major (K x M, W[k*M + m]): y[b][m] = sum_k W[k][m]*x[b][k].
// One thread per output (consecutive m coalesced), 2-D grid (M, batch), 64-thread blocks, __ldg on x.
__global__ void bgemv_colmajor(const float *__restrict__ W, const float *__restrict__ x,
                               float *__restrict__ y, int B, int M, int K) {
  int m = blockIdx.x * 64 + threadIdx.x;
  int b = blockIdx.y;
  if (m < M) {
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
      acc += W[k * M + m] * __ldg(&x[b * K + k]);
    y[b * M + m] = acc;
  }
}

void launch_bgemv_colmajor(const float *W, const float *x, float *y, int B, int M, int K) {
  dim3 grid((M + 63) / 64, B);
  bgemv_colmajor<<<grid, 64>>>(W, x, y, B, M, K);
}
