// ReLU with a grid-stride while loop (index advanced by a const stride), 128 threads,
// at most 2048 blocks.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    while (i < n) {
        float v = x[i];
        y[i] = v > 0.0f ? v : 0.0f;
        i += stride;
    }
}

void launch_gs_relu_while(const float* x, float* y, int n)
{
    int blocks = (n + 127) / 128;
    blocks = blocks < 2048 ? blocks : 2048;
    relu_kernel<<<blocks, 128>>>(x, y, n);
}
