// Block sum, strided index (Harris' reduction #2): little divergence, but bank conflicts.
//
// GROUND TRUTH (launch_reduce_strided_index: 1-D block of 256 = 8 warps; tid = threadIdx.x;
// static shared memory 1024 bytes; s = 1, 2, 4, ..., 128: 8 iterations; index = 2*s*tid):
// line 31: load in[i]: coalesced, 4 sectors/request (ideal 4).
// line 31: shared store sdata[tid]: no bank conflict.
// line 33: loop (s < blockDim.x): uniform trip count (8) -- not divergent.
// line 35: branch (index < blockDim.x): active threads are tid < 128/s. Warp-uniform
//   for s = 1, 2, 4 (warps 0-3, 0-1, 0 fully active, the others fully inactive); divergent in
//   warp 0 only for s = 8, 16, 32, 64, 128 (16, 8, 4, 2, 1 active lanes).
// line 36: shared load sdata[index], shared load sdata[index + s], shared store
//   sdata[index]: bank conflicts. Lane stride is 2s words, so the degree is the number of
//   active lanes sharing a bank: s=1: 2-way, s=2: 4-way, s=4: 8-way, s=8: 8-way (16 lanes on
//   banks 0/16), s=16: 8-way (8 lanes, bank 0), s=32: 4-way, s=64: 2-way, s=128: none.
//   Worst case 8-way; the same degree for all three accesses.
// line 39: branch (tid == 0): divergent in warp 0 only.
// line 40: store out[blockIdx.x]: 1 active lane, 1 sector/request.
// Pitfalls: the conflict degree depends on the loop variable s and on how many lanes are active
//   (the guard), so it is not simply gcd(stride, 32) over 32 lanes -- for s >= 8 fewer than 32
//   lanes are active and the degree falls. index is an int computed from unsigned values; the
//   comparison with blockDim.x is unsigned.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20 (4096 blocks): shared-store bank conflicts = 143,360 = 35 per block, exactly the
//   sum of (degree - 1) over active warps above (4*1 + 2*3 + 7 + 7 + 7 + 3 + 1); shared-load
//   conflicts 292,303 ~ 2 loads x 35 per block (+ ~2% noise); store wavefronts 55 per block.
#define BLOCK 256
__global__ void reduce_strided_index(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

void launch_reduce_strided_index(const float *in, float *out, int n) {
  dim3 block(BLOCK);
  dim3 grid((n + BLOCK - 1) / BLOCK);
  reduce_strided_index<<<grid, block>>>(in, out, n);
}
