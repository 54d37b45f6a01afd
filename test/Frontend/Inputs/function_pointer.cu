__device__ float twice(float v) { return 2 * v; }
__global__ void k(float *x) {
  float (*f)(float) = twice;
  x[0] = f(x[0]);
}
