// SAXPY y = a*x + y with the classic grid-stride loop (stride written inline as
// blockDim.x * gridDim.x), launched on a fixed grid of 1024 blocks.
#include <cuda_runtime.h>

__global__ void saxpy_gs(int n, float a, const float* x, float* y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

void launch_gs_saxpy(int n, float a, const float* x, float* y)
{
    saxpy_gs<<<1024, 256>>>(n, a, x, y);
}
