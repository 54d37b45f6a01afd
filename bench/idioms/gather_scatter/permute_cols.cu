// Column permutation copy out[r][c] = src[r][perm[c]] on a rows x cols matrix
// (perm given per column): a template on the element type, an index macro,
// 2-D grid of 32x8 blocks.
#define AT(r, c, ld) ((r) * (ld) + (c))

template <typename T>
__global__ void permute_cols(const T *src, const int *perm, T *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[AT(r, c, cols)] = src[AT(r, perm[c], cols)];
}

void launch_permute_cols(const float *src, const int *perm, float *out, int rows, int cols) {
  dim3 threads(32, 8);
  dim3 blocks((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);
  permute_cols<float><<<blocks, threads>>>(src, perm, out, rows, cols);
}
