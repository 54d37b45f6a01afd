// chain3.cu with the intermediates the launcher's own: it allocates t1 and
// t2, launches the three kernels and frees them, so no caller can read them
// (the importer marks them ks.scratch). Fused, nothing reads them any more
// and they are no longer written: the fused kernel reads x and writes y.
__global__ void scale(const float *x, float *t1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t1[i] = 2.0f * x[i];
}

__global__ void shift(const float *t1, float *t2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t2[i] = t1[i] + 1.0f;
}

__global__ void square(const float *t2, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = t2[i] * t2[i];
}

void launch_chain3_scratch(const float *__restrict__ x, float *__restrict__ y, int n) {
  float *t1, *t2;
  cudaMalloc(&t1, n * sizeof(float));
  cudaMalloc(&t2, n * sizeof(float));
  int blocks = (n + 255) / 256;
  scale<<<blocks, 256>>>(x, t1, n);
  shift<<<blocks, 256>>>(t1, t2, n);
  square<<<blocks, 256>>>(t2, y, n);
  cudaFree(t1);
  cudaFree(t2);
}
