// Naive fp32 GEMM C = A * B (A is M x K, B is K x N, C is M x N, row-major), one thread per C element.
//
// GROUND TRUTH (launch_gemm_naive: block 16x16 = 256 threads = 8 warps; warp w of a block holds
// threadIdx.y = 2w and 2w+1, threadIdx.x = 0..15 for each, i.e. 2 rows x 16 columns of C):
// line 35: load A[row * K + p]: independent of threadIdx.x -- broadcast: the 16 lanes of
//   one row read the same address; 2 distinct addresses per warp (rows 2w, 2w+1), 2 sectors/request
//   for K >= 8 (ideal 2; the two rows are K*4 bytes apart). Strided by K along threadIdx.y.
// line 35: load B[p * N + col]: coalesced along threadIdx.x, independent of threadIdx.y:
//   both half-warps read the same 16 consecutive floats (64 bytes), 2 sectors/request (ideal 2)
//   when N % 8 == 0 (otherwise 3 for rows p with p*N % 8 != 0).
// line 36: store C[row * N + col]: 2 rows x 64 bytes, 4 sectors/request (ideal 4) when
//   N % 8 == 0 (up to 6 otherwise).
// line 32: branch (row < M && col < N): col < N diverges in the warps of the last block
//   column when N % 16 != 0; row < M diverges in a warp only when its two rows straddle M
//   (M odd, last block row). Warp-uniform otherwise.
// line 34: loop (p < K): uniform trip count (kernel argument) -- not divergent.
// Reuse (per block, per p): the block reads 16 distinct A elements (column p of its 16 rows) and
//   16 distinct B elements (row p, its 16 columns) but issues 16 A and 16 B requests (8 warps x 2).
//   Each A element is used by the 16 threads of one C row -- all in the same warp, so that reuse
//   is served by the broadcast within one request. Each B element is used by the 16 threads of
//   one C column, spread over all 8 warps (and both halves of each warp): 8 requests for the
//   same 64 bytes, inter-warp reuse that only L1 can capture. Across the grid, every A element
//   is read by all N/16 blocks of a block row and every B element by all M/16 blocks of a
//   block column (L2 reuse). Staging 16x16 tiles of A and B in shared memory (tiled GEMM) cuts
//   global requests 16x. Arithmetic intensity: 1 FMA per 2 four-byte loads (0.25 FLOP/byte at
//   the request level) -- memory-bound as written.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   M = N = K = 512: global loads 2.0 sectors/request (A and B both 2), store 4.0; 32 registers.
__global__ void gemm_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p)
      acc += A[row * K + p] * B[p * N + col];
    C[row * N + col] = acc;
  }
}

void launch_gemm_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + 16 - 1) / 16, (M + 16 - 1) / 16);
  gemm_naive<<<grid, block>>>(A, B, C, M, N, K);
}
