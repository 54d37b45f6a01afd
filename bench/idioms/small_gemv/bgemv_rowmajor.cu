// Small-batch GEMV: y[b][m] = sum_k W[m][k] * x[b][k], W row-major M x K (a linear layer's weight).
// One thread per output; grid.y walks the batch. Each thread reads its own row of W.
__global__ void bgemv_rowmajor(const float *W, const float *x, float *y, int B, int M, int K) {
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (m >= M || b >= B)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += W[m * K + k] * x[b * K + k];
  y[b * M + m] = acc;
}

void launch_bgemv_rowmajor(const float *W, const float *x, float *y, int B, int M, int K) {
  dim3 grid((M + 255) / 256, B);
  bgemv_rowmajor<<<grid, 256>>>(W, x, y, B, M, K);
}
