// Column sums out[j] = sum_i A[i][j] (A rows x cols, row-major). A 32x8 block owns 32 columns: each
// thread sums every 8th row of its column, the partials go through a shared part[32][8] (indexed
// [column][row]: 8-way bank conflicts on the store) and one row of threads adds them up.
__global__ void colsum_smem(const float *A, float *out, int rows, int cols) {
  __shared__ float part[32][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * 32 + tx;
  float s = 0.0f;
  if (col < cols)
    for (int r = ty; r < rows; r += 8)
      s += A[(size_t)r * cols + col];
  part[tx][ty] = s;
  __syncthreads();
  if (ty == 0 && col < cols) {
    float t = 0.0f;
    for (int k = 0; k < 8; k++)
      t += part[tx][k];
    out[col] = t;
  }
}

void launch_colsum_smem(const float *A, float *out, int rows, int cols) {
  dim3 block(32, 8);
  colsum_smem<<<(cols + 31) / 32, block>>>(A, out, rows, cols);
}
