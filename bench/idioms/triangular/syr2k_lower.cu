// SYR2K (symmetric rank-2k update, polybench style), lower triangle: for j <= i,
// C[i][j] = beta*C[i][j] + alpha * sum_k (A[i][k]*B[j][k] + B[i][k]*A[j][k]). size_t indices, macros.
#define A_(i, k) A[(size_t)(i) * K + (k)]
#define B_(i, k) B[(size_t)(i) * K + (k)]
#define C_(i, j) C[(size_t)(i) * N + (j)]

__global__ void syr2k_lower(int N, int K, float alpha, float beta, const float *A, const float *B,
                            float *C) {
  size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= (size_t)N || j > i)
    return;
  float c = C_(i, j) * beta;
  for (size_t k = 0; k < (size_t)K; k++)
    c += alpha * A_(i, k) * B_(j, k) + alpha * B_(i, k) * A_(j, k);
  C_(i, j) = c;
}

void launch_syr2k_lower(int N, int K, float alpha, float beta, const float *A, const float *B,
                        float *C) {
  dim3 threads(32, 8);
  dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
  syr2k_lower<<<blocks, threads>>>(N, K, alpha, beta, A, B, C);
}
