// Copy with 16-byte vector accesses through reinterpret_cast<float4 *>.
//
// GROUND TRUTH (launch_vector_float4: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x;
// n4 = number of float4 elements; the buffers are 16-byte aligned, as cudaMalloc returns them):
// line 18: load reinterpret_cast<const float4 *>(in)[i]: 16-byte accesses, unit stride (in float4)
//   along threadIdx.x: coalesced, 16 sectors/request (ideal 16; 512 bytes per warp, 4 cache lines).
// line 19: store reinterpret_cast<float4 *>(out)[i]: coalesced, 16 sectors/request (ideal 16).
// line 17: branch (i < n4): diverges only in the last warp of the grid when n4 % 32 != 0.
// Pitfalls: the access width is 16 bytes, not the 4 of the underlying float buffer: an analysis
//   that sizes the access by the memref element type reports 4 sectors; one that sees a float
//   index stride of 4 reports "strided by 4" -- both wrong. 16 sectors/request is ideal here
//   (one request moves 512 bytes, 4x fewer requests than the scalar copy).
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n4 = 2^18: load 16.0 and store 16.0 sectors/request.
__global__ void vector_float4(const float *in, float *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4 *>(in)[i];
    reinterpret_cast<float4 *>(out)[i] = v;
  }
}

void launch_vector_float4(const float *in, float *out, int n4) {
  dim3 block(256);
  dim3 grid((n4 + 256 - 1) / 256);
  vector_float4<<<grid, block>>>(in, out, n4);
}
