// Block sum, interleaved addressing with a modulo test (Harris' reduction #1): divergent warps.
//
// GROUND TRUTH (launch_reduce_interleaved: 1-D block of 256 = 8 warps; tid = threadIdx.x;
// static shared memory 256*4 = 1024 bytes; the loop runs s = 1, 2, 4, ..., 128: 8 iterations):
// line 31: load in[i]: coalesced, 4 sectors/request (ideal 4).
// line 31: shared store sdata[tid]: no bank conflict.
// line 31: select/branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// line 33: loop (s < blockDim.x): uniform trip count (8) -- not divergent.
// line 34: branch (tid % (2 * s) == 0): divergent. For s = 1..16 it diverges in every
//   warp (32 / (2s) active lanes: 16, 8, 4, 2, 1); for s = 32, 64, 128 only lane 0 of the warps
//   whose first tid is a multiple of 2s is active (4, 2, 1 warps) and the other warps skip it
//   uniformly. Every one of the 8 iterations has a divergent warp.
// line 35: shared load sdata[tid], shared load sdata[tid + s], shared store
//   sdata[tid]: no bank conflict at any s. For s <= 16 the active lanes of warp w are
//   tid = 32w + 2s*k, k < 16/s, so the banks 2s*k (and 2s*k + s) are distinct; for s >= 32
//   at most one lane per warp is active.
// line 38: branch (tid == 0): divergent in warp 0 only (one active lane).
// line 39: store out[blockIdx.x]: 1 active lane, 1 sector/request; shared load
//   sdata[0]: no conflict.
// Pitfalls: this version has divergence but NO bank conflicts; its strided-index rewrite
//   (reduce_strided_index.cu) trades the divergence for bank conflicts. The % by a
//   loop-variant value is an expensive integer op (not a memory issue).
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: global load 4.0 sectors/request; shared bank conflicts ~0 (under 1% of
//   wavefronts, ncu noise).
#define BLOCK 256
__global__ void reduce_interleaved(const float *in, float *out, int n) {
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

void launch_reduce_interleaved(const float *in, float *out, int n) {
  dim3 block(BLOCK);
  dim3 grid((n + BLOCK - 1) / BLOCK);
  reduce_interleaved<<<grid, block>>>(in, out, n);
}
