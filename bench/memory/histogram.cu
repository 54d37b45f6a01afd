// A 256-bin histogram of n bytes: one thread per byte, one global atomic
// per byte (every thread of the GPU contends for the same 256 counters).
__global__ void histogram(const unsigned char *in, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i]], 1u);
}

void launch_histogram(const unsigned char *in, unsigned int *bins, int n) {
  histogram<<<(n + 255) / 256, 256>>>(in, bins, n);
}
