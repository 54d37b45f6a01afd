// Clamp to [lo, hi] through a Caffe-style CUDA_KERNEL_LOOP grid-stride macro,
// __restrict__ pointers, fixed 1024 x 512 launch from macros.
#include <cuda_runtime.h>

#define CUDA_KERNEL_LOOP(i, n) \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

#define NUM_BLOCKS 1024
#define NUM_THREADS 512

__global__ void clamp_kernel(const float* __restrict__ x, float* __restrict__ y, float lo, float hi, int n)
{
    CUDA_KERNEL_LOOP(idx, n) {
        y[idx] = fminf(fmaxf(x[idx], lo), hi);
    }
}

void launch_gs_clamp_macro(const float* x, float* y, float lo, float hi, int n)
{
    clamp_kernel<<<NUM_BLOCKS, NUM_THREADS>>>(x, y, lo, hi, n);
}
