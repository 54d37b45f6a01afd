// y = alpha * x, each thread scales 4 consecutive elements in an unrolled loop with
// the bounds guard inside; grid = ceil(n / (4 * 256)).
#include <cuda_runtime.h>

__global__ void scale4(const float* x, float* y, float alpha, int n)
{
    int c0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
#pragma unroll
    for (int u = 0; u < 4; u++)
        if (c0 + u < n)
            y[c0 + u] = alpha * x[c0 + u];
}

void launch_gu_scale4(const float* x, float* y, float alpha, int n)
{
    int threads = 256;
    int blocks = (n + 4 * threads - 1) / (4 * threads);
    scale4<<<blocks, threads>>>(x, y, alpha, n);
}
