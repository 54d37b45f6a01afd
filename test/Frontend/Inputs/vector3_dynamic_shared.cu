__global__ void k(float *out) {
  extern __shared__ int3 s[];
  out[threadIdx.x] = s[threadIdx.x].x;
}
