// GELU (tanh approximation) of a rows x cols matrix: a __device__ helper with
// tanhf, 2-D grid of 32x8 blocks, row/col indexing.
__device__ float gelu(float x) {
  const float k0 = 0.7978845608028654f; // sqrt(2/pi)
  const float k1 = 0.044715f;
  return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

__global__ void gelu_tanh(const float *x, float *y, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    int idx = row * cols + col;
    y[idx] = gelu(x[idx]);
  }
}

void launch_gelu_tanh(const float *x, float *y, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  gelu_tanh<<<grid, block>>>(x, y, rows, cols);
}
