// Causal (masked) attention scores per head: S[h][i][j] = scale * dot(Q[h][i], K[h][j]) for j <= i,
// 0 above the diagonal. Q, K are [H][T][D] row-major. 2-D grid over (j, i), heads on grid.z; __ldg loads.
__global__ void causal_scores(const float *__restrict__ Q, const float *__restrict__ K,
                              float *__restrict__ S, int H, int T, int D, float scale) {
  int j = blockIdx.x * 16 + threadIdx.x;
  int i = blockIdx.y * 16 + threadIdx.y;
  int h = blockIdx.z;
  if (i >= T || j >= T || h >= H)
    return;
  const float *q = Q + (size_t)h * T * D + (size_t)i * D;
  const float *k = K + (size_t)h * T * D + (size_t)j * D;
  float acc = 0.0f;
  if (j <= i) {
    for (int d = 0; d < D; ++d)
      acc += __ldg(q + d) * __ldg(k + d);
    acc *= scale;
  }
  S[(size_t)h * T * T + (size_t)i * T + j] = acc;
}

void launch_causal_scores(const float *Q, const float *K, float *S, int H, int T, int D,
                          float scale) {
  dim3 block(16, 16);
  dim3 grid((T + 15) / 16, (T + 15) / 16, H);
  causal_scores<<<grid, block>>>(Q, K, S, H, T, D, scale);
}
