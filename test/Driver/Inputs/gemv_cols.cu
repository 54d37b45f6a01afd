// y = A^T x, A is m x n row-major: one thread per column (coalesced reads,
// but only n threads).
__global__ void gemv_cols(const float *A, const float *x, float *y, int m, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < n) {
    float acc = 0.f;
    for (int i = 0; i < m; ++i)
      acc += A[i * n + col] * x[i];
    y[col] = acc;
  }
}

void launch_gemv_cols(const float *A, const float *x, float *y, int m, int n) {
  gemv_cols<<<(n + 127) / 128, 128>>>(A, x, y, m, n);
}
