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

// A batch on blockIdx.z: y[b * C + c] with b < B (the grid's z) and c < C.
// The guard c < C of a thread index also says C >= 1 wherever y is written,
// so the product b * C is bounded.
__global__ void batch_zero(int B, int C, float* y) {
  int b = blockIdx.z;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < C)
    y[b * C + c] = 0.f;
}

void launch_batch_zero(int B, int C, float* y) {
  dim3 grid((C + 255) / 256, 1, B);
  batch_zero<<<grid, 256>>>(B, C, y);
}

// The interior of an (n+2) x (m+2) grid: in[(i + 1) * (m + 2) + j + 1].
__global__ void interior(int n, int m, const float* in, float* out) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < m)
    out[i * m + j] = in[(i + 1) * (m + 2) + j + 1] * 2.f;
}

void launch_interior(int n, int m, const float* in, float* out) {
  dim3 block(32, 8);
  dim3 grid((m + 31) / 32, (n + 7) / 8);
  interior<<<grid, block>>>(n, m, in, out);
}
