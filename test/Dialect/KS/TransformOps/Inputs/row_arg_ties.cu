// Row argmax and argmin with many equal values (x rounded to halves, so
// every row holds ties): the position kept is the first of the extreme
// value, which is what a split row must reproduce. The argmin starts from
// a sentinel (+inf at position -1) before the row's first element.
__global__ void argmax_ties(const float *x, unsigned *idx, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = floorf(x[r * cols] * 2.0f);
  unsigned at = 0;
  for (int c = 1; c < cols; ++c) {
    float v = floorf(x[r * cols + c] * 2.0f);
    bool better = v > best;
    best = better ? v : best;
    at = better ? (unsigned)c : at;
  }
  idx[r] = at;
}

__global__ void argmin_sentinel(const float *x, int *idx, float *low, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = INFINITY;
  int at = -1;
  for (int c = 0; c < cols; ++c) {
    float v = floorf(x[r * cols + c] * 2.0f);
    bool better = best > v;
    best = better ? v : best;
    at = better ? c : at;
  }
  idx[r] = at;
  low[r] = best;
}

__global__ void argmax_last_first(const float *x, int *idx, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = floorf(x[r * cols + cols - 1] * 2.0f);
  int at = cols - 1;
  for (int c = 0; c < cols - 1; ++c) {
    float v = floorf(x[r * cols + c] * 2.0f);
    bool better = v > best;
    best = better ? v : best;
    at = better ? c : at;
  }
  idx[r] = at;
}

void launch_argmax_last_first(const float *x, int *idx, int rows, int cols) {
  argmax_last_first<<<(rows + 127) / 128, 128>>>(x, idx, rows, cols);
}

void launch_argmax_ties(const float *x, unsigned *idx, int rows, int cols) {
  argmax_ties<<<(rows + 127) / 128, 128>>>(x, idx, rows, cols);
}

void launch_argmin_sentinel(const float *x, int *idx, float *low, int rows, int cols) {
  argmin_sentinel<<<(rows + 127) / 128, 128>>>(x, idx, low, rows, cols);
}
