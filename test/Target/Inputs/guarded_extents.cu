// Buffers whose extents only the kernels' guarded accesses give (issue 44):
// no #ks.workload names them.
__global__ void pairs(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[2 * i] + x[2 * i + 1];
}

void launch_pairs(const float* x, float* y, int n) {
  pairs<<<(n + 255) / 256, 256>>>(x, y, n);
}

// Guarded on both indices, with the bounds in the other order; rows of
// length m + 2 (a halo).
__global__ void interior(int n, int m, const float* in, float* out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m && i < n)
    out[i * m + j] = in[(i + 1) * (m + 2) + j + 1] - in[i * (m + 2) + j];
}

void launch_interior(int n, int m, const float* in, float* out) {
  dim3 block(32, 8);
  interior<<<dim3((m + 31) / 32, (n + 7) / 8), block>>>(n, m, in, out);
}
