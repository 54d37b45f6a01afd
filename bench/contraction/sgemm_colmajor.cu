// BLAS-style SGEMM, column-major with leading dimensions:
// C = alpha * A * B + beta * C, A is M x K (lda), B is K x N (ldb), C is
// M x N (ldc). One thread per output; threadIdx.x walks a column of C.
__global__ void sgemm_colmajor(int M, int N, int K, float alpha, const float *A, int lda,
                               const float *B, int ldb, float beta, float *C, int ldc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < M && j < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[i + p * lda] * B[p + j * ldb];
    C[i + j * ldc] = alpha * acc + beta * C[i + j * ldc];
  }
}

void launch_sgemm_colmajor(int M, int N, int K, float alpha, const float *A, int lda,
                           const float *B, int ldb, float beta, float *C, int ldc) {
  dim3 block(16, 16);
  dim3 grid((M + block.x - 1) / block.x, (N + block.y - 1) / block.y);
  sgemm_colmajor<<<grid, block>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
