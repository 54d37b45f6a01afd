// y[i] = x[idx[i]] with a bounds check on the index (out-of-range -> 0):
// plain int indices, 256 threads per block.
__global__ void gather_1d(const float *x, const int *idx, float *y, int m, int nsrc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int j = idx[i];
    y[i] = (j >= 0 && j < nsrc) ? x[j] : 0.0f;
  }
}

void launch_gather_1d(const float *x, const int *idx, float *y, int m, int nsrc) {
  gather_1d<<<(m + 255) / 256, 256>>>(x, idx, y, m, nsrc);
}
