// y[c] = sum_r x[r][c], x is rows x cols row-major: one thread per column (the
// warp's reads are coalesced, but there are only cols threads).
__global__ void col_sum(const float *x, float *y, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float acc = 0.f;
  for (int r = 0; r < rows; ++r)
    acc += x[r * cols + c];
  y[c] = acc;
}

void launch_col_sum(const float *x, float *y, int rows, int cols) {
  col_sum<<<(cols + 127) / 128, 128>>>(x, y, rows, cols);
}
