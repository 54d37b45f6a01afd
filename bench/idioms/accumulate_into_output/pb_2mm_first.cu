// PolyBench 2MM, first product: tmp = alpha * A * B (A NI x NK, B NK x NJ), zeroed and then
// accumulated in place in global memory. Index macro, 16x16 blocks.
#define IDX(i, j, ld) ((i) * (ld) + (j))

__global__ void pb_2mm_first(int NI, int NJ, int NK, float alpha, float *tmp, const float *A,
                             const float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NI || j >= NJ)
    return;
  tmp[IDX(i, j, NJ)] = 0.0f;
  for (int k = 0; k < NK; ++k)
    tmp[IDX(i, j, NJ)] += alpha * A[IDX(i, k, NK)] * B[IDX(k, j, NJ)];
}

void launch_pb_2mm_first(int NI, int NJ, int NK, float alpha, float *tmp, const float *A,
                         const float *B) {
  dim3 block(16, 16);
  dim3 grid((NJ + 15) / 16, (NI + 15) / 16);
  pb_2mm_first<<<grid, block>>>(NI, NJ, NK, alpha, tmp, A, B);
}
