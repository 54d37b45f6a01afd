// Cumulative max along each row (segments = rows), one thread per row: a
// template on the element type with a __device__ max helper; 64-thread blocks.
template <typename T> __device__ T max_of(T a, T b) { return a > b ? a : b; }

template <typename T>
__global__ void row_cummax(const T *x, T *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    T m = x[r * cols];
    y[r * cols] = m;
    for (int c = 1; c < cols; c++) {
      m = max_of(m, x[r * cols + c]);
      y[r * cols + c] = m;
    }
  }
}

void launch_row_cummax(const float *x, float *y, int rows, int cols) {
  row_cummax<float><<<(rows + 63) / 64, 64>>>(x, y, rows, cols);
}
