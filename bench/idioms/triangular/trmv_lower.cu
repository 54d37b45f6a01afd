// Lower-triangular matrix-vector product y = tril(A) * x (A n x n row-major; entries above the
// diagonal are skipped with an `if (col <= row)` inside the k loop). One thread per row.
__global__ void trmv_lower(const float *A, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float s = 0.0f;
    for (int col = 0; col < n; col++) {
      if (col <= row)
        s += A[row * n + col] * x[col];
    }
    y[row] = s;
  }
}

void launch_trmv_lower(const float *A, const float *x, float *y, int n) {
  int threads = 128;
  int blocks = (n + threads - 1) / threads;
  trmv_lower<<<blocks, threads>>>(A, x, y, n);
}
