// A direct 3x3 convolution, NCHW, one thread per output: the static decision
// must not replace it by an unpredicted default (issue 44: split_reduction
// ran 14x slower than this input on an H100).
__global__ void conv2d_nchw(const float* x, const float* w, float* y, int N, int C, int H, int W, int K) {
  int OH = H - 2, OW = W - 2;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N * K * OH * OW) {
    int ow = idx % OW;
    int oh = (idx / OW) % OH;
    int k = (idx / (OW * OH)) % K;
    int n = idx / (OW * OH * K);
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
      for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s)
          acc += x[((n * C + c) * H + oh + r) * W + ow + s] * w[((k * C + c) * 3 + r) * 3 + s];
    y[idx] = acc;
  }
}

void launch_conv2d_nchw(const float* x, const float* w, float* y, int N, int C, int H, int W, int K) {
  int total = N * K * (H - 2) * (W - 2);
  conv2d_nchw<<<(total + 255) / 256, 256>>>(x, w, y, N, C, H, W, K);
}
