// SiLU y = x / (1 + exp(-x)) spelled as four launches (negate, exp, add one,
// divide) through three scratch buffers; size_t length and indices.
__global__ void negate(const float *x, float *t1, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    t1[i] = -x[i];
}

__global__ void exp_kernel(const float *t1, float *t2, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    t2[i] = expf(t1[i]);
}

__global__ void add_one(const float *t2, float *t3, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    t3[i] = 1.0f + t2[i];
}

__global__ void divide(const float *x, const float *t3, float *y, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] / t3[i];
}

void launch_silu4_scratch(const float *x, float *y, size_t n) {
  float *t1, *t2, *t3;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&t1, bytes);
  cudaMalloc(&t2, bytes);
  cudaMalloc(&t3, bytes);
  unsigned int blocks = (unsigned int)((n + 255) / 256);
  negate<<<blocks, 256>>>(x, t1, n);
  exp_kernel<<<blocks, 256>>>(t1, t2, n);
  add_one<<<blocks, 256>>>(t2, t3, n);
  divide<<<blocks, 256>>>(x, t3, y, n);
  cudaFree(t1);
  cudaFree(t2);
  cudaFree(t3);
}
