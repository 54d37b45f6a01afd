// A thread-private 1 KiB array indexed with data-dependent subscripts: it cannot live in
// registers, so it is placed in local memory (stack frame).
//
// GROUND TRUTH (launch_spill_local_array: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x;
// resources as nvcc -O3 -arch=sm_90 compiles this file):
// Resources: stack frame >= 1024 bytes (buf[256] of float in local memory); ptxas reports it as
//   stack frame, with 0 bytes of spill stores/loads -- it is a local array, not a register
//   spill; an analysis should say "local memory: 1024 bytes per thread" either way.
// line 34: load x[i]: coalesced, 4 sectors/request (ideal 4).
// line 36: local store buf[(k * 7) % 256]: 256 local stores per thread; the subscript is
//   the same in all lanes and local memory interleaves 4-byte words across the lanes of a warp,
//   so each store is coalesced (4 sectors/request) -- the cost is the 1 KiB/thread of memory
//   traffic (L1, L2 and, for large grids, DRAM), not scatter.
// line 37: load idx[i]: coalesced, 4 sectors/request (ideal 4).
// line 40: local load buf[(j + 17 * k) & 255]: subscript differs per lane (data-dependent
//   j), so the 16 local loads are gathers: 1..32 sectors/request depending on idx.
// line 41: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 31: branch (i >= n) (early return): diverges only in the last warp of the grid when
//   n % 32 != 0.
// line 35, line 39: loops: constant trip counts (256, 16) -- not divergent.
// Pitfalls: the array's subscript (k * 7) % 256 is a permutation of 0..255 (7 is odd), so every
//   element is written; a dynamic subscript anywhere forces the whole array into local memory.
//   KernelSkill's own lowering (memref.alloca; ks-opt --kernelskill-lower, then ptxas) also
//   gives a 1024-byte stack frame (27 registers).
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: 23 registers, 1024-byte stack frame, no spills; local stores 256 requests per
//   warp at 4.0 sectors/request; local loads 31.6 sectors/request (random idx); 1.06 GB of DRAM
//   writes -- the local array's traffic reaches DRAM at this size, it does not stay in L1/L2.
__global__ void spill_local_array(const float *x, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[256];
  float v = x[i];
  for (int k = 0; k < 256; ++k)
    buf[(k * 7) % 256] = v * k;
  int j = idx[i];
  float s = 0.0f;
  for (int k = 0; k < 16; ++k)
    s += buf[(j + 17 * k) & 255];
  out[i] = s;
}

void launch_spill_local_array(const float *x, const int *idx, float *out, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  spill_local_array<<<grid, block>>>(x, idx, out, n);
}
