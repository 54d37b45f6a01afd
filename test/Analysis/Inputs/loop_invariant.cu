// GROUND TRUTH (launch_loop_invariant: 1-D block of 128 = 4 warps; col = bx*128 + threadIdx.x):
// line 11: load x[i * cols + col]: coalesced, changes every iteration of the i loop.
// line 11: load scale[col]: the same address in every iteration of the i loop and `scale` is
//   not written in it: a register candidate (load once before the loop).
// line 12: store out[col]: coalesced.
__global__ void loop_invariant(const float *x, const float *scale, float *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    float acc = 0.0f;
    for (int i = 0; i < rows; ++i)
      acc += x[i * cols + col] * scale[col];
    out[col] = acc;
  }
}

void launch_loop_invariant(const float *x, const float *scale, float *out, int rows, int cols) {
  dim3 block(128);
  dim3 grid((cols + 127) / 128);
  loop_invariant<<<grid, block>>>(x, scale, out, rows, cols);
}
