// Scatter-add y[idx[i]] += x[i] with atomicAdd (y accumulates, not zeroed
// here): 512 threads per block.
__global__ void scatter_add(const float *x, const int *idx, float *y, int n, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&y[idx[i]], x[i]);
}

void launch_scatter_add(const float *x, const int *idx, float *y, int n, int ny) {
  scatter_add<<<(n + 511) / 512, 512>>>(x, idx, y, n, ny);
}
