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

// A 5-point stencil guarded by `i >= 1 && i < n - 1` (issue 44's Jacobi
// step): i < n - 1 with i >= 0 says n >= 2, so (i - 1) * n is bounded, and
// the constant 1 in `i >= 1` is itself, not bounded by i. A spans n * n.
__global__ void jacobi(int n, const float* A, float* B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] +
                           A[(i + 1) * n + j] + A[(i - 1) * n + j]);
}

void launch_jacobi(int n, const float* A, float* B) {
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (n + 7) / 8);
  jacobi<<<grid, block>>>(n, A, B);
}

// The border copied apart (bench/memory/stencil2d.cu's style): past
// `if (i == 0 || j == 0 || i == n - 1 || j == m - 1) return;` i >= 1 and
// i <= n - 2 (i < n, i != n - 1), so in[(i - 1) * m + j] is bounded and in
// spans exactly n * m.
__global__ void border(const float* in, float* out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  if (i == 0 || j == 0 || i == n - 1 || j == m - 1) {
    out[i * m + j] = in[i * m + j];
    return;
  }
  out[i * m + j] = 0.25f * (in[(i - 1) * m + j] + in[(i + 1) * m + j] +
                            in[i * m + j - 1] + in[i * m + j + 1]);
}

void launch_border(const float* in, float* out, int n, int m) {
  dim3 block(16, 16);
  dim3 grid((m + 15) / 16, (n + 15) / 16);
  border<<<grid, block>>>(in, out, n, m);
}

// The interior rows written column-major: y[j * (n - 2) + i] under
// `i < n - 2`. That guard says n >= 3 (i >= 0), so the factor n - 2 is
// positive and the product bounded.
__global__ void interior_cols(int n, int m, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y;
  if (i < n - 2 && j < m)
    y[j * (n - 2) + i] = x[(i + 1) * m + j];
}

void launch_interior_cols(int n, int m, const float* x, float* y) {
  dim3 grid((n + 127) / 128, m);
  interior_cols<<<grid, 128>>>(n, m, x, y);
}
