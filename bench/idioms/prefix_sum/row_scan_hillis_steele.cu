// Inclusive prefix sum of each row, one block of 1024 threads per row, a
// Hillis-Steele scan in dynamic shared memory (cols <= 1024); __restrict__.
__global__ void row_scan_hs(const float *__restrict__ x, float *__restrict__ y, int rows,
                            int cols) {
  extern __shared__ float buf[];
  int r = blockIdx.x;
  int t = threadIdx.x;
  if (t < cols)
    buf[t] = x[r * cols + t];
  __syncthreads();
  for (int offset = 1; offset < cols; offset *= 2) {
    float v = 0.0f;
    if (t < cols && t >= offset)
      v = buf[t - offset];
    __syncthreads();
    if (t < cols)
      buf[t] += v;
    __syncthreads();
  }
  if (t < cols)
    y[r * cols + t] = buf[t];
}

void launch_row_scan_hillis_steele(const float *x, float *y, int rows, int cols) {
  // cols must be at most 1024: one thread per element of the row.
  row_scan_hs<<<rows, 1024, cols * sizeof(float)>>>(x, y, rows, cols);
}
