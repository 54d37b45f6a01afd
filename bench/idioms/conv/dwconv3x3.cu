// Depthwise KSxKS convolution (one filter per channel), NCHW, stride 1, zero padding KS/2 with
// guards; template on the kernel size, instantiated for 3. w is [C][KS][KS]. 1-D grid over outputs.
template <int KS>
__global__ void dwconv(const float *src, const float *w, float *out, int N, int C, int H, int W) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total = N * C * H * W;
  if (idx >= total)
    return;
  int x = idx % W;
  int y = (idx / W) % H;
  int c = (idx / (W * H)) % C;
  int n = idx / (W * H * C);
  const float *plane = src + (n * C + c) * H * W;
  const float *f = w + c * KS * KS;
  float sum = 0.0f;
  for (int i = 0; i < KS; i++) {
    int yy = y + i - KS / 2;
    for (int j = 0; j < KS; j++) {
      int xx = x + j - KS / 2;
      if (yy >= 0 && yy < H && xx >= 0 && xx < W)
        sum += plane[yy * W + xx] * f[i * KS + j];
    }
  }
  out[idx] = sum;
}

void launch_dwconv3x3(const float *src, const float *w, float *out, int N, int C, int H, int W) {
  int total = N * C * H * W;
  dwconv<3><<<(total + 255) / 256, 256>>>(src, w, out, N, C, H, W);
}
