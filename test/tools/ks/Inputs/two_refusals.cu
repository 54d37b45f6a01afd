// Two kernels ks leaves alone, each for its own reason: k1 is predicted no
// faster one per thread, k2 (a grid-stride loop) gets no launcher.
__global__ void k1(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.f;
}
__global__ void k2(int n, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] += 1.f;
}
