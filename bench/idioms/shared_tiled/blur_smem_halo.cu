// 5x5 box blur of a height x width image through a shared tile with a 2-pixel halo; pixels outside
// the image count as zero (zero padding), the sum is divided by 25. 16x16 blocks, halo loaded in a loop.
#define R 2
#define TW 16
#define TH 16

__global__ void blur_smem_halo(const float *__restrict__ img, float *__restrict__ out, int width,
                               int height) {
  __shared__ float tile[TH + 2 * R][TW + 2 * R];
  int x0 = blockIdx.x * TW - R, y0 = blockIdx.y * TH - R;
  int tid = threadIdx.y * TW + threadIdx.x;
  for (int i = tid; i < (TH + 2 * R) * (TW + 2 * R); i += TW * TH) {
    int ty = i / (TW + 2 * R), tx = i % (TW + 2 * R);
    int gx = x0 + tx, gy = y0 + ty;
    tile[ty][tx] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? img[gy * width + gx] : 0.0f;
  }
  __syncthreads();
  int x = blockIdx.x * TW + threadIdx.x, y = blockIdx.y * TH + threadIdx.y;
  if (x < width && y < height) {
    float s = 0.0f;
    for (int dy = 0; dy <= 2 * R; dy++)
      for (int dx = 0; dx <= 2 * R; dx++)
        s += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * width + x] = s * (1.0f / 25.0f);
  }
}

void launch_blur_smem_halo(const float *img, float *out, int width, int height) {
  dim3 block(TW, TH);
  dim3 grid((width + TW - 1) / TW, (height + TH - 1) / TH);
  blur_smem_halo<<<grid, block>>>(img, out, width, height);
}
