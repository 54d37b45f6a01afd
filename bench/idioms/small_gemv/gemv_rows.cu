// Plain GEMV y = A * x (A M x N row-major): one thread per row, dot product of the row with x.
// Index macro, 512-thread blocks.
#define ROW_MAJOR(r, c, ld) ((r) * (ld) + (c))

__global__ void gemv_rows(const float *A, const float *x, float *y, int M, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < M) {
    float dot = 0.0f;
    for (int c = 0; c < N; c++)
      dot += A[ROW_MAJOR(r, c, N)] * x[c];
    y[r] = dot;
  }
}

void launch_gemv_rows(const float *A, const float *x, float *y, int M, int N) {
  gemv_rows<<<(M + 511) / 512, 512>>>(A, x, y, M, N);
}
