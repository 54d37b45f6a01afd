// PolyBench GEMVER, the x update: x[i] += beta * A[j][i] * y[j] over j, then x[i] += z[i]
// (A n x n row-major; x inout). One thread per i, column walk of A, index macro, 1-D grid of 256.
#define A_AT(r, c) A[(r) * n + (c)]

__global__ void pb_gemver_x(int n, float beta, const float *A, float *x, const float *y,
                            const float *z) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    for (int j = 0; j < n; j++)
      x[i] = x[i] + beta * A_AT(j, i) * y[j];
    x[i] = x[i] + z[i];
  }
}

void launch_pb_gemver_x(int n, float beta, const float *A, float *x, const float *y,
                        const float *z) {
  pb_gemver_x<<<(n + 255) / 256, 256>>>(n, beta, A, x, y, z);
}
