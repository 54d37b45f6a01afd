// relu(x + bias[col]) on a rows x cols matrix as two launches: add the
// per-column bias into a cudaMalloc'ed scratch, then relu it into y.
__global__ void add_bias(const float *x, const float *bias, float *t, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols)
    t[i] = x[i] + bias[i % cols];
}

__global__ void relu(const float *t, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = t[i] > 0.0f ? t[i] : 0.0f;
}

void launch_bias_relu_scratch(const float *x, const float *bias, float *y, int rows, int cols) {
  int n = rows * cols;
  float *t;
  cudaMalloc(&t, (size_t)n * sizeof(float));
  int blocks = (n + 255) / 256;
  add_bias<<<blocks, 256>>>(x, bias, t, rows, cols);
  relu<<<blocks, 256>>>(t, y, n);
  cudaFree(t);
}
