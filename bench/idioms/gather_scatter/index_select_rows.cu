// index_select of rows: out[r][c] = src[idx[r]][c]; 1-D grid over the output
// with size_t indices, __restrict__ and __ldg for the read-only buffers.
__global__ void index_select_rows(const float *__restrict__ src, const int *__restrict__ idx,
                                  float *__restrict__ out, int nout, int cols, int nsrc) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t total = (size_t)nout * cols;
  if (i >= total)
    return;
  size_t r = i / cols;
  size_t c = i % cols;
  size_t s = (size_t)__ldg(&idx[r]);
  out[i] = __ldg(&src[s * cols + c]);
}

void launch_index_select_rows(const float *src, const int *idx, float *out, int nout, int cols,
                              int nsrc) {
  size_t total = (size_t)nout * cols;
  unsigned int blocks = (unsigned int)((total + 255) / 256);
  index_select_rows<<<blocks, 256>>>(src, idx, out, nout, cols, nsrc);
}
