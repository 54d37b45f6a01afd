// One 5-point Jacobi sweep on an n x m grid, interior points only (the
// border of unew is left untouched); 2-D grid of 32x8 blocks.
__global__ void jacobi5_2d(const float *u, float *unew, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < n - 1 && j > 0 && j < m - 1) {
    unew[i * m + j] = 0.25f * (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] +
                               u[i * m + j + 1]);
  }
}

void launch_jacobi5_2d(const float *u, float *unew, int n, int m) {
  dim3 block(32, 8);
  dim3 grid((m + 31) / 32, (n + 7) / 8);
  jacobi5_2d<<<grid, block>>>(u, unew, n, m);
}
