// 64 live accumulators per thread (fully unrolled): register pressure limits occupancy.
//
// GROUND TRUTH (launch_many_registers_unrolled: 1-D block of 256 = 8 warps; i = bx*256 + threadIdx.x;
// m independent rows of x, each of n floats; resources as nvcc -O3 -arch=sm_90 compiles this file):
// Resources: the #pragma unroll loops have constant trip counts (64), so acc[] is promoted to
//   registers and all 64 values are live across the j loop: nvcc 13.0 reports 73 registers,
//   0 bytes stack frame, 0 spills. Registers are allocated per warp in units of 256, i.e.
//   73 -> 80 per thread = 2560 per warp; sm_90 has 4 x 16384 registers per SM -> 6 warps per
//   sub-partition = 24 warps -> 3 blocks of 8 warps per SM = 37.5% theoretical occupancy;
//   limiter: registers (threads alone would allow 8 blocks). Any count from 65 to 80 gives the
//   same 3 blocks; 81 to 88 would give 2 blocks (25%).
// line 34: load x[j * n + i]: coalesced, 4 sectors/request (ideal 4); executed m times.
// line 43: store out[i]: coalesced, 4 sectors/request (ideal 4).
// line 27: branch (i >= n) (early return): diverges only in the last warp when n % 32 != 0.
// line 33: loop (j < m): uniform trip count -- not divergent.
// Pitfalls: "#pragma unroll" is what keeps acc[] out of local memory; a pipeline that ignores
//   the hint leaves a dynamically indexed array. KernelSkill's importer keeps the pragma as a
//   hint only: its lowering (ks-opt --kernelskill-lower, then ptxas) gives 32 registers and a
//   256-byte stack frame, i.e. local loads/stores and 100% theoretical occupancy -- a profile of
//   the imported IR must not be compared with nvcc's numbers above without saying which.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   n = 2^16, m = 16: 73 registers, block limit (registers) 3, theoretical occupancy
//   37.5%; load 4.0 and store 4.0 sectors/request.
#define NACC 64
__global__ void many_registers_unrolled(const float *x, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc[NACC];
#pragma unroll
  for (int k = 0; k < NACC; ++k)
    acc[k] = 0.0f;
  for (int j = 0; j < m; ++j) {
    float v = x[j * n + i];
#pragma unroll
    for (int k = 0; k < NACC; ++k)
      acc[k] = acc[k] * v + (float)(k + 1);
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < NACC; ++k)
    s += acc[k] * (float)(NACC - k);
  out[i] = s;
}

void launch_many_registers_unrolled(const float *x, float *out, int n, int m) {
  dim3 block(256);
  dim3 grid((n + 256 - 1) / 256);
  many_registers_unrolled<<<grid, block>>>(x, out, n, m);
}
