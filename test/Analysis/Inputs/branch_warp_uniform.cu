// Even and odd WARPS take different paths: no divergence inside any warp.
//
// GROUND TRUTH (launch_branch_warp_uniform: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x):
// line 20: load a[i]: coalesced, 4 sectors/request (ideal 4).
// line 21: load b[i]: coalesced, 4 sectors/request (ideal 4).
// line 27: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 19: branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// line 23: branch ((threadIdx.x / 32) % 2 == 0): uniform within each warp (no
//   divergence): threadIdx.x / 32 is the warp index because the block is 1-D and blockDim.x
//   (256) is a multiple of 32. Warps 0, 2, 4, 6 take the then-side, warps 1, 3, 5, 7 the else-side.
// Pitfalls: the condition depends on threadIdx.x, so a taint-style "thread-dependent => divergent"
//   analysis wrongly flags it; the condition is constant over each aligned group of 32 lanes.
//   It would diverge with a 2-D block whose blockDim.x is not a multiple of 32 (e.g. 48x4: the
//   second warp holds threadIdx.x 32..47 of row 0 and 0..15 of row 1).
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: 4.0 sectors/request for loads and store; 32.0 threads per executed instruction.
__global__ void branch_warp_uniform(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = a[i];
    float q = b[i];
    float r;
    if ((threadIdx.x / 32) % 2 == 0)
      r = p * q;
    else
      r = p + q;
    out[i] = r;
  }
}

void launch_branch_warp_uniform(const float *a, const float *b, float *out, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  branch_warp_uniform<<<grid, block>>>(a, b, out, n);
}
