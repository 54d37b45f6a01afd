// Launchers as users write them, whose prototypes ks optimize's output must
// keep (issue 44): const pointers, a host-side clamp of the block count, a
// launch-site cast to a vector type, and kernels with C++ linkage.
__global__ void scale(const float* x, float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i];
}

void launch_scale(const float* x, float* y, float a, int n) {
  int blocks = (n + 255) / 256;
  if (blocks > 1024) blocks = 1024;
  scale<<<blocks, 256>>>(x, y, a, n);
}

__global__ void add4(const float4* a, const float4* b, float4* c, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 u = a[i], v = b[i];
    c[i] = make_float4(u.x + v.x, u.y + v.y, u.z + v.z, u.w + v.w);
  }
}

void launch_add4(const float* a, const float* b, float* c, int n) {
  int n4 = n / 4;
  add4<<<(n4 + 127) / 128, 128>>>((const float4*)a, (const float4*)b, (float4*)c, n4);
}
