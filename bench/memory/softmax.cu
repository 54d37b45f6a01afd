// Softmax of each row of x (rows x cols, row-major): one thread per row, three
// passes over the row (max, sum of exponentials, normalization).
__global__ void softmax(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = -INFINITY;
  for (int j = 0; j < cols; ++j)
    m = fmaxf(m, x[r * cols + j]);
  float s = 0.f;
  for (int j = 0; j < cols; ++j)
    s += expf(x[r * cols + j] - m);
  for (int j = 0; j < cols; ++j)
    y[r * cols + j] = expf(x[r * cols + j] - m) / s;
}

void launch_softmax(const float *x, float *y, int rows, int cols) {
  softmax<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
