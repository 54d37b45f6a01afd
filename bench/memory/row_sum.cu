// y[r] = sum_j x[r][j], x is rows x cols row-major: one thread per row (each
// thread walks its own row: the warp's reads are strided by a row).
__global__ void row_sum(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
  for (int j = 0; j < cols; ++j)
    acc += x[r * cols + j];
  y[r] = acc;
}

void launch_row_sum(const float *x, float *y, int rows, int cols) {
  row_sum<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
