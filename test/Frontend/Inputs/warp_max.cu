// Row max with warp shuffles; a __device__ helper and a template.
__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}
template <int WARPS>
__global__ void row_max(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x * WARPS + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  m = warp_max(m);
  if (lane == 0)
    y[row] = m;
}
void launch(const float *x, float *y, int rows, int cols) {
  row_max<4><<<(rows + 3) / 4, 128>>>(x, y, rows, cols);
}
