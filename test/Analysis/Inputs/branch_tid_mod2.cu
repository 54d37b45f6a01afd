// Even and odd lanes take different paths: divergence inside every warp.
//
// GROUND TRUTH (launch_branch_tid_mod2: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x):
// line 20: load a[i]: coalesced, 4 sectors/request (ideal 4).
// line 21: load b[i]: coalesced, 4 sectors/request (ideal 4).
// line 27: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 19: branch (i < n): diverges only in the last warp of the grid when n % 32 != 0.
// line 23: branch (threadIdx.x % 2 == 0): divergent in every warp (16 lanes take
//   each side; both sides execute serially, 50% lane efficiency in each arm).
// Pitfalls: the arms are one instruction each, so nvcc/ptxas if-convert them to a select
//   (no branch in SASS, no measurable cost); an analysis should report the divergence of the
//   condition and weigh it by the (tiny) size of the arms. The loads are outside the inner
//   branch on purpose: all 32 lanes are active there.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^20: 4.0 sectors/request for loads and store; 32.0 threads per executed
//   instruction -- nvcc turned the if/else into a select, so SASS has no divergent branch.
__global__ void branch_tid_mod2(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = a[i];
    float q = b[i];
    float r;
    if (threadIdx.x % 2 == 0)
      r = p * q;
    else
      r = p + q;
    out[i] = r;
  }
}

void launch_branch_tid_mod2(const float *a, const float *b, float *out, int n) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  branch_tid_mod2<<<grid, block>>>(a, b, out, n);
}
