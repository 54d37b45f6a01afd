// A lower-triangular matrix-vector product with its launcher: the reduction
// of row i runs over j <= i.
__global__ void tril_matvec(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int j = 0; j <= i; ++j) acc += L[i * n + j] * x[j];
  y[i] = acc;
}

void launch_tril_matvec(const float *L, const float *x, float *y, int n) {
  tril_matvec<<<(n + 127) / 128, 128>>>(L, x, y, n);
}
