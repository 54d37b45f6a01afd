// A 7-point Jacobi step on an n x n x n grid: one thread per point; the
// border is copied.
__global__ void stencil3d(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= n || y >= n || z >= n) return;
  int s = n * n;
  int p = z * s + y * n + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    out[p] = in[p];
    return;
  }
  out[p] = (1.f / 7.f) * (in[p] + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + in[p - s] +
                          in[p + s]);
}

void launch_stencil3d(const float *in, float *out, int n) {
  dim3 block(8, 8, 8);
  dim3 grid((n + 7) / 8, (n + 7) / 8, (n + 7) / 8);
  stencil3d<<<grid, block>>>(in, out, n);
}
