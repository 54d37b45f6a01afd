// PolyBench MVT: x1 += A * y1 and x2 += A^T * y2 (A n x n), both vectors updated in place (inout),
// one thread per index doing both sums. __restrict__ pointers, size_t row offsets, 1-D grid of 128.
__global__ void pb_mvt(int n, float *__restrict__ x1, float *__restrict__ x2,
                       const float *__restrict__ y1, const float *__restrict__ y2,
                       const float *__restrict__ A) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int j = 0; j < n; j++)
    x1[i] = x1[i] + A[(size_t)i * n + j] * y1[j];
  for (int j = 0; j < n; j++)
    x2[i] = x2[i] + A[(size_t)j * n + i] * y2[j];
}

void launch_pb_mvt(int n, float *x1, float *x2, const float *y1, const float *y2, const float *A) {
  int block = 128;
  pb_mvt<<<(n + block - 1) / block, block>>>(n, x1, x2, y1, y2, A);
}
