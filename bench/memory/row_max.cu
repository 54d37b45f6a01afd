// y[r] = max_j x[r][j], x is rows x cols row-major: one thread per row.
__global__ void row_max(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = -INFINITY;
  for (int j = 0; j < cols; ++j)
    m = fmaxf(m, x[r * cols + j]);
  y[r] = m;
}

void launch_row_max(const float *x, float *y, int rows, int cols) {
  row_max<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
