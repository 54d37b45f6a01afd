// Naive fp32 GEMM with B transposed, C = A * B^T (A is M x K, B is N x K,
// both row-major): one thread per output.
__global__ void gemm_nt(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int p = 0; p < K; ++p)
    acc += A[row * K + p] * B[col * K + p];
  C[row * N + col] = acc;
}

void launch_gemm_nt(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  gemm_nt<<<grid, block>>>(A, B, C, M, N, K);
}
