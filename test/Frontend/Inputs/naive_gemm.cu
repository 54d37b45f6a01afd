// Naive fp32 GEMM: one thread per output element.
__global__ void naive_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[row * K + p] * B[p * N + col];
    C[row * N + col] = acc;
  }
}
