// Three elementwise steps, y = (2x + 1)^2 through t and u, in a host
// function that allocates t and u itself: t only its kernels see (ks.scratch),
// u is copied back to the host (the caller's host_u), so it stays written.
__global__ void scale(const float *x, float *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t[i] = 2.f * x[i];
}
__global__ void shift(const float *t, float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = t[i] + 1.f;
}
__global__ void square(const float *u, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = u[i] * u[i];
}

void chain(const float *__restrict__ x, float *__restrict__ y, float *host_u, int n) {
  float *t = nullptr, *u;
  cudaMalloc(&t, n * sizeof(float));
  cudaMalloc((void **)&u, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(x, t, n);
  shift<<<(n + 255) / 256, 256>>>(t, u, n);
  square<<<(n + 255) / 256, 256>>>(u, y, n);
  cudaMemcpy(host_u, u, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(t);
  cudaFree(u);
}
