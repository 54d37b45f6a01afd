// 3x3 convolution + bias + ReLU, NCHW, valid (no padding): out[n][k][y][x] =
// max(0, bias[k] + sum_c,r,s img[n][c][y+r][x+s] * w[k][c][r][s]), out (H-2) x (W-2). size_t indices.
__device__ __forceinline__ float relu(float v) { return v > 0.0f ? v : 0.0f; }

__global__ void conv3x3_bias_relu(const float *img, const float *w, const float *bias, float *out,
                                  int N, int C, int H, int W, int K) {
  int OH = H - 2, OW = W - 2;
  size_t ox = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t oy = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  size_t nk = blockIdx.z;
  if (ox >= (size_t)OW || oy >= (size_t)OH)
    return;
  size_t n = nk / K, k = nk % K;
  float acc = bias[k];
  for (size_t c = 0; c < (size_t)C; ++c) {
    const float *src = img + ((n * C + c) * H + oy) * W + ox;
    const float *wk = w + (k * C + c) * 9;
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s)
        acc += src[r * W + s] * wk[r * 3 + s];
  }
  out[((n * K + k) * OH + oy) * OW + ox] = relu(acc);
}

void launch_conv3x3_bias_relu(const float *img, const float *w, const float *bias, float *out,
                              int N, int C, int H, int W, int K) {
  dim3 block(32, 4);
  dim3 grid((W - 2 + block.x - 1) / block.x, (H - 2 + block.y - 1) / block.y, N * K);
  conv3x3_bias_relu<<<grid, block>>>(img, w, bias, out, N, C, H, W, K);
}
