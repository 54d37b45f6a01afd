// Direct 3x3 convolution, NCHW, valid padding, stride 1:
// out[b][k][y][x] = sum over c, r, s of in[b][c][y + r][x + s] * w[k][c][r][s].
// One thread per output; threadIdx.x walks x.
__global__ void conv2d_nchw(const float *in, const float *w, float *out, int batch, int C, int H,
                            int W, int K) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int bk = blockIdx.z * blockDim.z + threadIdx.z;
  int OH = H - 2, OW = W - 2;
  if (x >= OW || y >= OH || bk >= batch * K)
    return;
  int b = bk / K, k = bk % K;
  float acc = 0.0f;
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s)
        acc += in[((b * C + c) * H + (y + r)) * W + (x + s)] * w[((k * C + c) * 3 + r) * 3 + s];
  out[((b * K + k) * OH + y) * OW + x] = acc;
}

void launch_conv2d_nchw(const float *in, const float *w, float *out, int batch, int C, int H, int W,
                        int K) {
  dim3 block(32, 8, 1);
  dim3 grid((W - 2 + 31) / 32, (H - 2 + 7) / 8, batch * K);
  conv2d_nchw<<<grid, block>>>(in, w, out, batch, C, H, W, K);
}
