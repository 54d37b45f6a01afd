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

// A scalar the launcher computes: the kernel's n4 is n / 4.
__global__ void quarter(const float* x, float* y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    y[i] = x[4 * i] + x[4 * i + 3];
}

void launch_quarter(const float* x, float* y, int n) {
  int n4 = n / 4;
  quarter<<<(n4 + 127) / 128, 128>>>(x, y, n4);
}
