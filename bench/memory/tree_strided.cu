// Per-block sums of n floats, the textbook second block reduction: the
// tree's active threads are contiguous (i = 2 * s * tid < blockDim.x) but
// their shared-memory accesses stride by 2s (bank conflicts).
#define BLOCK 256

__global__ void tree_strided(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

void launch_tree_strided(const float *in, float *out, int n) {
  tree_strided<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
