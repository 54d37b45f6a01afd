// C's rounding functions: rintf (to nearest, ties to even), roundf (ties
// away from zero), truncf (toward zero), and their aliases.
__global__ void rounding(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = rintf(x[i] * 4.5f) + 8.0f * roundf(x[i] * 2.5f) + 64.0f * truncf(x[i] * 3.5f) +
           512.0f * nearbyintf(x[i] * 1.5f);
}
void launch_rounding(const float *x, float *y, int n) {
  rounding<<<(n + 255) / 256, 256>>>(x, y, n);
}
