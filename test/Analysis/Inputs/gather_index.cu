// Indexed gather: out[i] = x[idx[i]].
//
// GROUND TRUTH (launch_gather_index: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x):
// line 17: load idx[i]: coalesced, 4 sectors/request (ideal 4).
// line 17: load x[idx[i]]: data-dependent gather -- the address comes from memory, so the
//   sectors/request are unknown statically: 1 (all lanes equal) to 32 (all in distinct sectors);
//   4 if idx happens to be the identity. An analysis must say "unknown / data-dependent", not
//   "coalesced" (the index expression contains i) and not a fixed 32.
// line 17: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 16: branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20, idx uniform random in [0, 2^20): idx 4.0 sectors/request, x 32.0 (31.996),
//   store 4.0.
__global__ void gather_index(const float *x, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[idx[i]];
}

void launch_gather_index(const float *x, const int *idx, float *out, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  gather_index<<<grid, block>>>(x, idx, out, n);
}
