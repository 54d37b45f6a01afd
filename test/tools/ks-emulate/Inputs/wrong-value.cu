// Writes 2x + 1e-3: within no float tolerance.
extern "C" __global__ void scale(const float *x, float *y, int n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i] + 1e-3f;
}
void launch_scale(const float *x, float *y, int n) {
  dim3 grid((n + 63) / 64, 1, 1);
  dim3 block(64, 1, 1);
  scale<<<grid, block>>>(x, y, n);
}
