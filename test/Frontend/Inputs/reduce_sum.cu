// Block-level sum reduction in shared memory, then one atomicAdd per block.
#define BLOCK 256
__global__ void reduce_sum(const float *in, float *out, int n) {
  __shared__ float partial[BLOCK];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
}
