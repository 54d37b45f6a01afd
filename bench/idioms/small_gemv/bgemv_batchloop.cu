// Small-batch GEMV y[b][m] = sum_k W[m][k] * x[b][k] (W row-major M x K, batch <= 8): one thread
// per row m keeps one accumulator per batch entry, so W is read once. size_t indices, __restrict__.
#define MAX_BATCH 8

__global__ void bgemv_batchloop(const float *__restrict__ W, const float *__restrict__ x,
                                float *__restrict__ y, int batch, int M, int K) {
  size_t m = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= (size_t)M)
    return;
  float acc[MAX_BATCH];
  for (int b = 0; b < MAX_BATCH; b++)
    acc[b] = 0.0f;
  for (size_t k = 0; k < (size_t)K; k++) {
    float w = W[m * K + k];
    for (int b = 0; b < batch; b++)
      acc[b] += w * x[(size_t)b * K + k];
  }
  for (int b = 0; b < batch; b++)
    y[(size_t)b * M + m] = acc[b];
}

void launch_bgemv_batchloop(const float *W, const float *x, float *y, int batch, int M, int K) {
  // batch must be at most MAX_BATCH
  bgemv_batchloop<<<(M + 127) / 128, 128>>>(W, x, y, batch, M, K);
}
