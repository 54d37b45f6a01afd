// y = alpha * x + y in place (BLAS saxpy): size_t length and index,
// __restrict__ pointers, 512 threads per block.
__global__ void saxpy_alpha(size_t n, float alpha, const float *__restrict__ x,
                            float *__restrict__ y) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}

void launch_saxpy_alpha(size_t n, float alpha, const float *x, float *y) {
  unsigned int blocks = (unsigned int)((n + 511) / 512);
  saxpy_alpha<<<blocks, 512>>>(n, alpha, x, y);
}
