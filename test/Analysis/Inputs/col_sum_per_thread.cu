// Column sums of a row-major rows x cols matrix, one thread per column (coalesced).
//
// GROUND TRUTH (launch_col_sum_per_thread: 1-D block of 256 = 8 warps; col = bx*256 + threadIdx.x):
// line 21: load a[i * cols + col]: coalesced (unit stride along threadIdx.x),
//   4 sectors/request (ideal 4) when cols % 8 == 0; when cols % 8 != 0, row i starts off a
//   32-byte boundary unless i * cols % 8 == 0, and those requests take 5 sectors.
//   Executed rows times per thread.
// line 22: store out[col]: coalesced, 4 sectors/request (ideal 4).
// line 18: branch (col < cols): diverges only in the last warp of the grid when
//   cols % 32 != 0; warp-uniform otherwise.
// line 20: loop (i < rows): uniform trip count (kernel argument) -- not divergent.
// Pitfalls: the loop variable i multiplies cols, but i is the same in every lane; only the
//   lane-varying part (col, coefficient 1) decides coalescing. No reuse: each element read once.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   rows = 256, cols = 4096: global load 4.0 sectors/request, store 4.0.
__global__ void col_sum_per_thread(const float *a, float *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    float s = 0.0f;
    for (int i = 0; i < rows; ++i)
      s += a[i * cols + col];
    out[col] = s;
  }
}

void launch_col_sum_per_thread(const float *a, float *out, int rows, int cols) {
  dim3 block(256);
  dim3 grid((cols + 256 - 1) / 256);
  col_sum_per_thread<<<grid, block>>>(a, out, rows, cols);
}
