// Grid-stride loops spelled three ways (issue 45): the step computed in the
// loop as an unsigned product, a while loop, and size_t counters.
__global__ void saxpy_inline(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void relu_while(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    x[i] = x[i] > 0.f ? x[i] : 0.f;
    i += gridDim.x * blockDim.x;
  }
}

__global__ void scale_size_t(size_t n, const float *__restrict__ x, float *__restrict__ y) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i] + 1.0f;
}

void launch_saxpy_inline(int n, float a, const float *x, float *y) {
  saxpy_inline<<<4, 64>>>(n, a, x, y);
}
void launch_relu_while(int n, float *x) { relu_while<<<4, 64>>>(n, x); }
void launch_scale_size_t(size_t n, const float *x, float *y) {
  scale_size_t<<<3, 128>>>(n, x, y);
}
