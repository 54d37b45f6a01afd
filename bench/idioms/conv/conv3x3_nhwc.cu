// 3x3 convolution, NHWC, stride 1, zero padding 1 (guards): src [N][H][W][C], wt [K][3][3][C] (OHWI),
// out [N][H][W][K]. One thread per output element with k fastest; index macros; 1-D grid of 256.
#define IN_AT(n, y, x, c) src[(((n) * H + (y)) * W + (x)) * C + (c)]
#define W_AT(k, r, s, c) wt[(((k) * 3 + (r)) * 3 + (s)) * C + (c)]

__global__ void conv3x3_nhwc(const float *__restrict__ src, const float *__restrict__ wt,
                             float *__restrict__ out, int N, int H, int W, int C, int K) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * H * W * K)
    return;
  int k = idx % K;
  int x = (idx / K) % W;
  int y = (idx / (K * W)) % H;
  int n = idx / (K * W * H);
  float acc = 0.0f;
  for (int r = 0; r < 3; r++) {
    int iy = y + r - 1;
    if (iy < 0 || iy >= H)
      continue;
    for (int s = 0; s < 3; s++) {
      int ix = x + s - 1;
      if (ix < 0 || ix >= W)
        continue;
      for (int c = 0; c < C; c++)
        acc += IN_AT(n, iy, ix, c) * W_AT(k, r, s, c);
    }
  }
  out[idx] = acc;
}

void launch_conv3x3_nhwc(const float *src, const float *wt, float *out, int N, int H, int W, int C,
                         int K) {
  int total = N * H * W * K;
  conv3x3_nhwc<<<(total + 255) / 256, 256>>>(src, wt, out, N, H, W, C, K);
}
