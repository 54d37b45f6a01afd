// TRMM: B_out = alpha * tril(L) * B, with L an M x M lower-triangular matrix (row-major, the upper
// part of the buffer is ignored) and B M x N. Template on the element type, loop bound k <= row.
template <typename T>
__global__ void trmm_lower(const T *__restrict__ L, const T *__restrict__ B, T *__restrict__ out,
                           int M, int N, T alpha) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N)
    return;
  T acc = 0;
  for (int k = 0; k <= row; ++k)
    acc += L[row * M + k] * B[k * N + col];
  out[row * N + col] = alpha * acc;
}

void launch_trmm_lower(const float *L, const float *B, float *out, int M, int N, float alpha) {
  dim3 block(32, 8);
  dim3 grid((N + 31) / 32, (M + 7) / 8);
  trmm_lower<float><<<grid, block>>>(L, B, out, M, N, alpha);
}
