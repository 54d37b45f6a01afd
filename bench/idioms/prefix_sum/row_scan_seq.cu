// Inclusive prefix sum of each row of a rows x cols matrix, one thread per
// row walking its row sequentially; 128 threads per block.
__global__ void row_scan_seq(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *xr = x + r * cols;
  float *yr = y + r * cols;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) {
    acc += xr[c];
    yr[c] = acc;
  }
}

void launch_row_scan_seq(const float *x, float *y, int rows, int cols) {
  row_scan_seq<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
