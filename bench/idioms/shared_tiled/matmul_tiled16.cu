// C = A * B (A M x K, B K x N, row-major) with 16x16 shared tiles As/Bs, as in the CUDA
// programming guide, plus zero-filled guards for sizes that are not multiples of 16.
#define BLOCK_SIZE 16

__global__ void matmul_tiled16(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BLOCK_SIZE + ty;
  int col = blockIdx.x * BLOCK_SIZE + tx;
  float Csub = 0.0f;
  for (int t = 0; t < (K + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
    int ak = t * BLOCK_SIZE + tx;
    int bk = t * BLOCK_SIZE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = Csub;
}

void launch_matmul_tiled16(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
  matmul_tiled16<<<grid, threads>>>(A, B, C, M, N, K);
}
