// bench/memory/stencil_probe.cu's s3_column<8> under the naive kernel's name.
extern "C" __global__ void stencil3d(const float *__restrict__ in, float *__restrict__ out, int n) {
  constexpr int K = 8;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z0 = blockIdx.z * K;
  int s = n * n;
  long end = long(s) * n;
  float col[K + 2];
#pragma unroll
  for (int r = 0; r < K + 2; ++r) {
    long f = long(z0 - 1 + r) * s + long(y) * n + x;
    col[r] = f >= 0 && f < end ? in[f] : 0.f;
  }
  if (x >= n || y >= n) return;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    int z = z0 + k;
    if (z >= n) break;
    int p = z * s + y * n + x;
    float v;
    if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1)
      v = col[k + 1];
    else
      v = (1.f / 7.f) * (col[k + 1] + in[p - 1] + in[p + 1] + in[p - n] + in[p + n] + col[k] +
                         col[k + 2]);
    out[p] = v;
  }
}
