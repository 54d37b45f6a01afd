// Direct 3x3 convolution, NCHW, stride 1, zero padding 1 (guards skip taps outside the image), so
// out is N x K x H x W. One thread per output pixel, loops over C and the 3x3 window; w is [K][C][3][3].
__global__ void conv3x3_nchw_pad(const float *x, const float *w, float *y, int N, int C, int H,
                                 int W, int K) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  int nk = blockIdx.z;
  int n = nk / K, k = nk % K;
  if (ox >= W || oy >= H)
    return;
  float acc = 0.0f;
  for (int c = 0; c < C; c++) {
    for (int ky = 0; ky < 3; ky++) {
      int iy = oy + ky - 1;
      if (iy < 0 || iy >= H)
        continue;
      for (int kx = 0; kx < 3; kx++) {
        int ix = ox + kx - 1;
        if (ix < 0 || ix >= W)
          continue;
        acc += x[((n * C + c) * H + iy) * W + ix] * w[(k * C + c) * 9 + ky * 3 + kx];
      }
    }
  }
  y[((n * K + k) * H + oy) * W + ox] = acc;
}

void launch_conv3x3_nchw_pad(const float *x, const float *w, float *y, int N, int C, int H, int W,
                             int K) {
  dim3 block(16, 16);
  dim3 grid((W + 15) / 16, (H + 15) / 16, N * K);
  conv3x3_nchw_pad<<<grid, block>>>(x, w, y, N, C, H, W, K);
}
