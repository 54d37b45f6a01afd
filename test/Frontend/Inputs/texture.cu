__global__ void k(cudaTextureObject_t tex, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = tex1Dfetch<float>(tex, i);
}
