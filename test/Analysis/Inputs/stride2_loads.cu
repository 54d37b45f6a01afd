// Reads every other element: out[i] = in[2 * i].
//
// GROUND TRUTH (launch_stride2_loads: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x;
// n = number of outputs, in holds 2n floats):
// line 17: load in[2 * i]: strided by 2 along threadIdx.x: a warp spans 256 bytes,
//   8 sectors/request (ideal 4); half of each fetched sector is unused (50% efficiency).
// line 17: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 16: branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// Pitfalls: the odd elements are read by no thread at all, so no cache or other warp recovers
//   the wasted half: DRAM traffic for in is 2x the useful bytes. Stride 2 is 8 sectors, not 32:
//   a 4-byte access with a stride of s elements spans 4*s sectors per warp for s <= 8, 32 beyond.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: load 8.0 sectors/request, store 4.0.
__global__ void stride2_loads(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[2 * i];
}

void launch_stride2_loads(const float *in, float *out, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  stride2_loads<<<grid, block>>>(in, out, n);
}
