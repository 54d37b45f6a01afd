// y = A * x (A rows x cols, row-major). Each block of 128 threads owns 128 rows; a 128x32 tile of A
// is staged through shared memory with coalesced loads, then each thread walks its own tile row
// (stride 32 words: every lane of a warp hits the same bank). x is staged 32 at a time.
__global__ void gemv_smem_tile(const float *A, const float *x, float *y, int rows, int cols) {
  __shared__ float As[128][32];
  __shared__ float xs[32];
  int tid = threadIdx.x;
  int row0 = blockIdx.x * 128;
  float acc = 0.0f;
  for (int c0 = 0; c0 < cols; c0 += 32) {
    int lane = tid % 32, r = tid / 32;
    for (int rr = r; rr < 128; rr += 4) {
      int gr = row0 + rr, gc = c0 + lane;
      As[rr][lane] = (gr < rows && gc < cols) ? A[(long)gr * cols + gc] : 0.0f;
    }
    if (tid < 32)
      xs[tid] = (c0 + tid < cols) ? x[c0 + tid] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 32; k++)
      acc += As[tid][k] * xs[k];
    __syncthreads();
  }
  if (row0 + tid < rows)
    y[row0 + tid] = acc;
}

void launch_gemv_smem_tile(const float *A, const float *x, float *y, int rows, int cols) {
  gemv_smem_tile<<<(rows + 127) / 128, 128>>>(A, x, y, rows, cols);
}
