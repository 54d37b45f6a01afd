// Causal softmax of each row of x (rows x cols, row-major), one thread per
// row: row r sees its elements j <= r % cols (the others count as -inf, as
// an attention mask makes them), three passes over the row.
__global__ void causal_softmax(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int last = r % cols;
  float m = -INFINITY;
  for (int j = 0; j < cols; ++j) {
    float v = x[r * cols + j];
    m = fmaxf(m, j <= last ? v : -INFINITY);
  }
  float s = 0.f;
  for (int j = 0; j < cols; ++j) {
    float v = x[r * cols + j];
    s += expf((j <= last ? v : -INFINITY) - m);
  }
  for (int j = 0; j < cols; ++j) {
    float v = x[r * cols + j];
    y[r * cols + j] = expf((j <= last ? v : -INFINITY) - m) / s;
  }
}

void launch_causal_softmax(const float *x, float *y, int rows, int cols) {
  causal_softmax<<<(rows + 127) / 128, 128>>>(x, y, rows, cols);
}
