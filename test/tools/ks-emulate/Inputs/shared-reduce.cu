// A block reduction through shared memory, barriers and shuffles: the
// emulation's threads must really run together.
extern "C" __global__ void block_sum(const float *x, float *y, int n) {
  __shared__ __align__(16) float partial[4];
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, off, 32);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    y[blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3];
}
void launch_block_sum(const float *x, float *y, int n) {
  block_sum<<<(n + 127) / 128, 128>>>(x, y, n);
}
