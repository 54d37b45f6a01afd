// 48 KiB of static shared memory per 128-thread block: occupancy limited by shared memory.
//
// GROUND TRUTH (launch_smem_limited: 1-D block of 128 = 4 warps; each block handles TILE = 12288
// elements; static shared memory 12288*4 = 49152 bytes = 48 KiB, the static maximum):
// Occupancy on sm_90 (H100/H200): 228 KiB (233472 bytes) of shared memory per SM, 1 KiB reserved
//   per block -> 50176 bytes per block -> floor(233472 / 50176) = 4 blocks per SM = 16 warps of
//   64 = 25% theoretical occupancy; limiter: shared memory (registers allow far more; the
//   block-count limit is 32, the thread limit 2048). Assumes the driver picks the largest
//   shared-memory carveout (it does by default when the kernel needs it).
// line 29: load in[base + k]: coalesced, 4 sectors/request (ideal 4).
// line 29: shared store big[k]: no bank conflict (unit stride).
// line 29: select/branch (base + k < n): diverges only in the warp that straddles n.
// line 33: shared load big[TILE - 1 - k]: no bank conflict (stride -1 is a
//   permutation of the banks).
// line 33: store out[base + k]: coalesced, 4 sectors/request (ideal 4).
// line 32: branch (base + k < n): diverges only in the warp that straddles n.
// line 28, line 31: loops: start at threadIdx.x, yet the trip count (96) is the
//   same for every thread because TILE % 128 == 0 (for the second loop that needs the launch's
//   blockDim.x = 128) -- not divergent.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 12288 * 264: 49152 bytes static shared memory, block limit (shared memory) 4,
//   theoretical occupancy 25%; global load/store 4.0 sectors/request; no bank conflicts.
#define TILE 12288
#define BLOCK 128
__global__ void smem_limited(const float *in, float *out, int n) {
  __shared__ float big[TILE];
  int base = blockIdx.x * TILE;
  for (int k = threadIdx.x; k < TILE; k += BLOCK)
    big[k] = base + k < n ? in[base + k] : 0.0f;
  __syncthreads();
  for (int k = threadIdx.x; k < TILE; k += blockDim.x)
    if (base + k < n)
      out[base + k] = big[TILE - 1 - k];
}

void launch_smem_limited(const float *in, float *out, int n) {
  dim3 block(BLOCK);
  dim3 grid((n + TILE - 1) / TILE);
  smem_limited<<<grid, block>>>(in, out, n);
}
