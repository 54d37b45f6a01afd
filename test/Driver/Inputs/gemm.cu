// Naive fp32 GEMM, C = A * B, all row-major: one thread per output.
__global__ void gemm_nn(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[row * K + p] * B[p * N + col];
    C[row * N + col] = acc;
  }
}

void launch_gemm_nn(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  gemm_nn<<<grid, block>>>(A, B, C, M, N, K);
}
