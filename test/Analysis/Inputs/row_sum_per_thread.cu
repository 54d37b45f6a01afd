// Row sums of a row-major rows x cols matrix, one thread per row (uncoalesced).
//
// GROUND TRUTH (launch_row_sum_per_thread: 1-D block of 256 = 8 warps; row = bx*256 + threadIdx.x):
// line 25: load a[row * cols + j]: strided by cols along threadIdx.x,
//   32 sectors/request (ideal 4) for cols >= 8; executed cols times per thread.
// line 26: store out[row]: coalesced, 4 sectors/request (ideal 4).
// line 22: branch (row < rows): diverges only in the last warp of the grid when
//   rows % 32 != 0; warp-uniform otherwise.
// line 24: loop (j < cols): trip count cols is a kernel argument, uniform across all
//   threads -- not divergent.
// Pitfalls: j is the unit-stride term of the index, but j is the same in every lane; the
//   lane-to-lane stride (the coefficient of threadIdx.x) is cols.
//   Each 32-byte sector a lane touches is touched again by that lane in the next 7 iterations
//   (j..j+7), so there is temporal/spatial reuse that only L1 can capture: 8 warps x 32 lanes
//   = 256 sectors live per block per 8 iterations. Whether L1 keeps them depends on how many
//   blocks share the SM; the request-level cost is 32 sectors regardless. Fix: one warp per
//   row (lanes stride over j) or a transposed layout.
// Measured on the H200 (nvcc 13.0 -O3 -arch=sm_90, Nsight Compute):
//   rows = 4096, cols = 256: global load 32.0 sectors/request, store 4.0.
__global__ void row_sum_per_thread(const float *a, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (int j = 0; j < cols; ++j)
      s += a[row * cols + j];
    out[row] = s;
  }
}

void launch_row_sum_per_thread(const float *a, float *out, int rows, int cols) {
  dim3 block(256);
  dim3 grid((rows + 256 - 1) / 256);
  row_sum_per_thread<<<grid, block>>>(a, out, rows, cols);
}
