// Discrete 2-D Laplacian (interior points) of an n x m field with size_t
// offsets through an IDX macro; 2-D grid of 64x4 blocks.
#define IDX(r, c) ((size_t)(r) * (size_t)m + (size_t)(c))

__global__ void laplacian2d(const float *f, float *lap, int n, int m, float inv_h2) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= 1 && r < n - 1 && c >= 1 && c < m - 1) {
    float center = f[IDX(r, c)];
    lap[IDX(r, c)] = (f[IDX(r - 1, c)] + f[IDX(r + 1, c)] + f[IDX(r, c - 1)] + f[IDX(r, c + 1)] -
                      4.0f * center) * inv_h2;
  }
}

void launch_laplacian2d_sizet(const float *f, float *lap, int n, int m, float inv_h2) {
  dim3 block(64, 4);
  dim3 grid((m + 63) / 64, (n + 3) / 4);
  laplacian2d<<<grid, block>>>(f, lap, n, m, inv_h2);
}
