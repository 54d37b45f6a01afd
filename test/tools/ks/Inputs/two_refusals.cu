// Two kernels ks leaves alone, each for its own reason: k1 is predicted no
// faster one per thread, k2 (which reads its lane, threadIdx.x, on its own)
// gets no launcher.
__global__ void k1(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 2.f;
}
__global__ void k2(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += (float)threadIdx.x;
}
