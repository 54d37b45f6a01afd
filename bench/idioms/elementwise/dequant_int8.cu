// Per-row int8 -> float dequantization out[r][c] = q[r][c] * scale[r]: a
// template on the output type, 1-D grid over the matrix, row = i / cols.
template <typename OutT>
__global__ void dequant_int8(const signed char *q, const float *scale, OutT *out, int rows,
                             int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) {
    int r = i / cols;
    out[i] = static_cast<OutT>(static_cast<float>(q[i]) * scale[r]);
  }
}

void launch_dequant_int8(const signed char *q, const float *scale, float *out, int rows,
                         int cols) {
  int total = rows * cols;
  dequant_int8<float><<<(total + 255) / 256, 256>>>(q, scale, out, rows, cols);
}
