// u = alpha * x + y, then v = u * z: two launches, the intermediate u is an
// output the caller passes (and may read); 64-thread blocks.
__global__ void axpy(const float *x, const float *y, float *u, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    u[i] = alpha * x[i] + y[i];
}

__global__ void mul(const float *u, const float *z, float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = u[i] * z[i];
}

void launch_axpy_mul_out(const float *x, const float *y, const float *z, float *u, float *v,
                         float alpha, int n) {
  int blocks = (n + 63) / 64;
  axpy<<<blocks, 64>>>(x, y, u, alpha, n);
  mul<<<blocks, 64>>>(u, z, v, n);
}
