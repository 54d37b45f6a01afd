// 3x3 box blur of an H x W image with clamp-to-edge borders: a small
// __device__ clamp helper, const __restrict__ + __ldg, 16x16 blocks.
__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__global__ void box_blur9(const float *__restrict__ img, float *__restrict__ out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H)
    return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = clampi(y + dy, 0, H - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = clampi(x + dx, 0, W - 1);
      sum += __ldg(&img[yy * W + xx]);
    }
  }
  out[y * W + x] = sum * (1.0f / 9.0f);
}

void launch_box_blur9(const float *img, float *out, int H, int W) {
  dim3 block(16, 16);
  dim3 grid((W + 15) / 16, (H + 15) / 16);
  box_blur9<<<grid, block>>>(img, out, H, W);
}
