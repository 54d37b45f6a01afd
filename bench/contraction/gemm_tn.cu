// Naive fp32 GEMM with A transposed, C = A^T * B (A is K x M, B is K x N,
// both row-major): one thread per output.
__global__ void gemm_tn(const float *A, const float *B, float *C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[p * M + row] * B[p * N + col];
    C[row * N + col] = acc;
  }
}

void launch_gemm_tn(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(32, 8);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  gemm_tn<<<grid, block>>>(A, B, C, M, N, K);
}
