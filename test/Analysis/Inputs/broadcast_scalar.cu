// Every thread reads the same scalar: y[i] = scale[0] * x[i].
//
// GROUND TRUTH (launch_broadcast_scalar: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x):
// line 17: load scale[0]: uniform address (the same for every thread of the grid):
//   broadcast, 1 sector/request (ideal 1); one 4-byte value for the whole grid, reused by all
//   n threads (L1/L2 hits after the first request; candidate for a kernel argument or a
//   uniform/constant load).
// line 17: load x[i]: coalesced, 4 sectors/request (ideal 4).
// line 17: store y[i]: coalesced, 4 sectors/request (ideal 4).
// line 16: branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// Pitfalls: stride 0 is not "uncoalesced": 32 lanes on one address is a single sector.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: scale[0] 1.0 sector/request, x 4.0, store 4.0.
__global__ void broadcast_scalar(const float *scale, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = scale[0] * x[i];
}

void launch_broadcast_scalar(const float *scale, const float *x, float *y, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  broadcast_scalar<<<grid, block>>>(scale, x, y, n);
}
