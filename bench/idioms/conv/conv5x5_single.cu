// 5x5 single-channel convolution (cross-correlation), valid: out is (H-4) x (W-4). Filter taps
// read with __ldg from a 25-float buffer. One thread per output, 32x8 blocks.
__global__ void conv5x5_single(const float *__restrict__ src, const float *__restrict__ filt,
                               float *__restrict__ out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int OH = H - 4, OW = W - 4;
  if (x < OW && y < OH) {
    float v = 0.0f;
#pragma unroll
    for (int i = 0; i < 5; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j)
        v += __ldg(&src[(y + i) * W + (x + j)]) * __ldg(&filt[i * 5 + j]);
    out[y * OW + x] = v;
  }
}

void launch_conv5x5_single(const float *src, const float *filt, float *out, int H, int W) {
  dim3 block(32, 8);
  dim3 grid((W - 4 + 31) / 32, (H - 4 + 7) / 8);
  conv5x5_single<<<grid, block>>>(src, filt, out, H, W);
}
