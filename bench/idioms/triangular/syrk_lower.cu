// SYRK, lower triangle only: C = alpha * A * A^T + beta * C for col <= row (upper part of C untouched).
// A is N x K row-major, C is N x N row-major. One thread per C element, 16x16 blocks.
__global__ void syrk_lower(const float *A, float *C, int N, int K, float alpha, float beta) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < N && col < N && col <= row) {
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
      sum += A[row * K + k] * A[col * K + k];
    C[row * N + col] = alpha * sum + beta * C[row * N + col];
  }
}

void launch_syrk_lower(const float *A, float *C, int N, int K, float alpha, float beta) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (N + 15) / 16);
  syrk_lower<<<grid, block>>>(A, C, N, K, alpha, beta);
}
