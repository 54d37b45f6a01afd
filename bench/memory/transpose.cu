// out = in^T, in is rows x cols row-major: one thread per element. The
// warp's reads are coalesced, its writes are a column of out (each lane a
// different 32-byte sector).
__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[c * rows + r] = in[r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  transpose<<<grid, block>>>(in, out, rows, cols);
}
