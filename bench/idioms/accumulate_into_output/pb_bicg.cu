// PolyBench BiCG (A is N x N): s = A^T r and q = A p, one thread per index t computing both s[t]
// and q[t], each zeroed and accumulated straight into the output array (the ATAX y += A[i][j]*tmp[i]
// pattern for s). 1-D grid of 256.
__global__ void pb_bicg(int n, const float *A, const float *r, const float *p, float *s,
                        float *q) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    s[t] = 0.0f;
    for (int i = 0; i < n; i++)
      s[t] += r[i] * A[i * n + t];
    q[t] = 0.0f;
    for (int j = 0; j < n; j++)
      q[t] += A[t * n + j] * p[j];
  }
}

void launch_pb_bicg(int n, const float *A, const float *r, const float *p, float *s, float *q) {
  pb_bicg<<<(n + 255) / 256, 256>>>(n, A, r, p, s, q);
}
