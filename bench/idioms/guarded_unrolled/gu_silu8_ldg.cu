// SiLU y = x / (1 + exp(-x)), 8 consecutive elements per thread through a __device__
// helper, __ldg loads, __restrict__, guard inside the unrolled loop.
#include <cuda_runtime.h>

__device__ __forceinline__ float silu(float v)
{
    return v / (1.0f + expf(-v));
}

__global__ void silu8(const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        int i = base + k;
        if (i < n)
            y[i] = silu(__ldg(x + i));
    }
}

void launch_gu_silu8_ldg(const float* x, float* y, int n)
{
    const int threads = 128;
    const int per_block = threads * 8;
    int blocks = (n + per_block - 1) / per_block;
    silu8<<<blocks, threads>>>(x, y, n);
}
