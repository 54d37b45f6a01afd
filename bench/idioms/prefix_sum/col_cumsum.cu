// Cumulative sum down the columns of a rows x cols matrix (torch.cumsum dim
// 0), one thread per column; block size as a macro.
#define THREADS 128

__global__ void col_cumsum(const float *x, float *y, int rows, int cols) {
  int c = blockIdx.x * THREADS + threadIdx.x;
  if (c < cols) {
    float s = 0.0f;
    for (int r = 0; r < rows; r++) {
      s += x[r * cols + c];
      y[r * cols + c] = s;
    }
  }
}

void launch_col_cumsum(const float *x, float *y, int rows, int cols) {
  col_cumsum<<<(cols + THREADS - 1) / THREADS, THREADS>>>(x, y, rows, cols);
}
