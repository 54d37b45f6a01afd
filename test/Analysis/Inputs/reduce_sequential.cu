// Block sum, sequential addressing (Harris' reduction #3): no bank conflicts, late divergence.
//
// GROUND TRUTH (launch_reduce_sequential: 1-D block of 256 = 8 warps; tid = threadIdx.x;
// static shared memory 1024 bytes; s = 128, 64, 32, 16, 8, 4, 2, 1: 8 iterations):
// line 23: load in[i]: coalesced, 4 sectors/request (ideal 4).
// line 23: shared store sdata[tid]: no bank conflict.
// line 25: loop (s > 0): uniform trip count (8) -- not divergent.
// line 26: branch (tid < s): warp-uniform for s = 128, 64, 32 (whole warps 0-3, 0-1, 0
//   active); divergent in warp 0 only for s = 16, 8, 4, 2, 1 (i.e. only when s < 32).
// line 27: shared load sdata[tid], shared load sdata[tid + s], shared store
//   sdata[tid]: no bank conflict at any s (unit stride across the active lanes).
// line 30: branch (tid == 0): divergent in warp 0 only.
// line 31: store out[blockIdx.x]: 1 active lane, 1 sector/request.
// Pitfalls: half of the threads are idle from the first iteration (s = 128) on, but that is
//   idle WARPS, not divergence; divergence appears only in the last 5 iterations, in one warp.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: global load 4.0 sectors/request; shared bank conflicts ~0 (ncu noise).
#define BLOCK 256
__global__ void reduce_sequential(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

void launch_reduce_sequential(const float *in, float *out, int n) {
  dim3 block(BLOCK);
  dim3 grid((n + BLOCK - 1) / BLOCK);
  reduce_sequential<<<grid, block>>>(in, out, n);
}
