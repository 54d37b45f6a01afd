// Fake quantization in three launches, each intermediate an output the
// caller passes: s = x * scale, c = clamp(s, lo, hi), q = rint(c). Kernels
// templated on the block size.
template <int BLOCK>
__global__ void fq_scale(const float *x, float *s, float scale, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    s[i] = x[i] * scale;
}

template <int BLOCK>
__global__ void fq_clamp(const float *s, float *c, float lo, float hi, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    c[i] = fminf(fmaxf(s[i], lo), hi);
}

template <int BLOCK>
__global__ void fq_round(const float *c, float *q, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    q[i] = rintf(c[i]);
}

void launch_fake_quant_out(const float *x, float *s, float *c, float *q, float scale, float lo,
                           float hi, int n) {
  const int B = 256;
  int grid = (n + B - 1) / B;
  fq_scale<B><<<grid, B>>>(x, s, scale, n);
  fq_clamp<B><<<grid, B>>>(s, c, lo, hi, n);
  fq_round<B><<<grid, B>>>(c, q, n);
}
