// 1-D 3-point moving average with the radius as a macro (RADIUS 1): points
// closer than RADIUS to either end are not written; 128 threads per block.
#define RADIUS 1
#define BLOCK_SIZE 128

__global__ void stencil1d(const float *x, float *y, int n) {
  int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  if (i < RADIUS || i >= n - RADIUS)
    return;
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    s += x[i + k];
  y[i] = s / (2 * RADIUS + 1);
}

void launch_stencil1d_radius(const float *x, float *y, int n) {
  stencil1d<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(x, y, n);
}
