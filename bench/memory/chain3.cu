// Three elementwise kernels launched back to back, each reading the
// previous one's output: y = (2x + 1)^2 through two intermediates t1, t2
// (launcher parameters: the caller may read them, so they stay written;
// __restrict__ says the buffers do not overlap, which fusion needs).
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

void launch_chain3(const float *__restrict__ x, float *__restrict__ t1, float *__restrict__ t2,
                   float *__restrict__ y, int n) {
  int blocks = (n + 255) / 256;
  scale<<<blocks, 256>>>(x, t1, n);
  shift<<<blocks, 256>>>(t1, t2, n);
  square<<<blocks, 256>>>(t2, y, n);
}
