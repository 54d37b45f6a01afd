// Exclusive prefix sum of each row of an int matrix (counts -> offsets), one
// thread per row, size_t row offsets; 256 threads per block.
__global__ void row_exclusive_scan(const int *counts, int *offsets, int rows, int cols) {
  size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= (size_t)rows)
    return;
  size_t base = r * (size_t)cols;
  int running = 0;
  for (size_t c = 0; c < (size_t)cols; ++c) {
    int v = counts[base + c];
    offsets[base + c] = running;
    running += v;
  }
}

void launch_row_exclusive_scan(const int *counts, int *offsets, int rows, int cols) {
  int threads = 256;
  row_exclusive_scan<<<(rows + threads - 1) / threads, threads>>>(counts, offsets, rows, cols);
}
