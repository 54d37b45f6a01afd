// Per-block sums of n floats, the textbook first block reduction: a thread
// per element, then a tree in shared memory whose active threads are
// tid % (2 * s) == 0 (divergent warps, accesses strided by 2s).
#define BLOCK 256

__global__ void tree_sum(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

void launch_tree_sum(const float *in, float *out, int n) {
  tree_sum<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
