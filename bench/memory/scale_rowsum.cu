// An elementwise kernel and a row sum of its output, launched back to back:
// y[r] = sum_c (2 x[r][c] + 1) through t (a launcher parameter: the caller
// may read it, so it stays written; __restrict__: the buffers do not
// overlap, which fusion needs).
__global__ void scale2d(const float *x, float *t, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    t[r * cols + c] = 2.0f * x[r * cols + c] + 1.0f;
}

__global__ void row_sum(const float *t, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
      s += t[r * cols + c];
    y[r] = s;
  }
}

void launch_scale_rowsum(const float *__restrict__ x, float *__restrict__ t,
                         float *__restrict__ y, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  scale2d<<<grid, block>>>(x, t, rows, cols);
  row_sum<<<(rows + 255) / 256, 256>>>(t, y, rows, cols);
}
