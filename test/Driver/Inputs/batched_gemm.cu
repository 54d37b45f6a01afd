// Batched naive fp32 GEMM: blockIdx.z is the batch, with size_t batch
// offsets; C[b] = A[b] * B[b], all row-major.
__global__ void batched_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
  size_t batch = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  const float *a = A + batch * M * K;
  const float *b = B + batch * K * N;
  float acc = 0;
  for (int p = 0; p < K; ++p) acc += a[row * K + p] * b[p * N + col];
  C[batch * M * N + row * N + col] = acc;
}

void launch_batched_gemm(const float *A, const float *B, float *C, int M, int N, int K,
                         int batches) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16, batches);
  batched_gemm<<<grid, block>>>(A, B, C, M, N, K);
}
