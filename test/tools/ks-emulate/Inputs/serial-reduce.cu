extern "C" __global__ void block_sum(const float *x, float *y, int n) {
  long long b = blockIdx.x;
  if (threadIdx.x != 0)
    return;
  float s = 0.0f;
  for (long long i = b * 128; i < b * 128 + 128; ++i)
    s += i < n ? x[i] : 0.0f;
  y[b] = s;
}
void launch_block_sum(const float *x, float *y, int n) {
  block_sum<<<(n + 127) / 128, 128>>>(x, y, n);
}
