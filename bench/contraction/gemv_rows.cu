// y = A x, A is m x n row-major: one thread per row (each thread walks its
// own row: the warp's reads are strided).
__global__ void gemv_rows(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  float acc = 0.f;
  for (int j = 0; j < n; ++j)
    acc += A[row * n + j] * x[j];
  y[row] = acc;
}

void launch_gemv_rows(const float *A, const float *x, float *y, int m, int n) {
  gemv_rows<<<(m + 127) / 128, 128>>>(A, x, y, m, n);
}
