// c = a + b on float vectors: the textbook one-thread-per-element kernel,
// int index, 256 threads per block.
__global__ void vec_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

void launch_vec_add(const float *a, const float *b, float *c, int n) {
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vec_add<<<blocks, threads>>>(a, b, c, n);
}
