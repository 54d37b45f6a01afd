// Sum of a float array: one element per thread, __shfl_down_sync warp reduction in a
// __device__ helper, lane 0 of every warp atomically adds its warp's sum.
#include <cuda_runtime.h>

__inline__ __device__ float warpReduceSum(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void sum_warp_atomic(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;
    v = warpReduceSum(v);
    if ((threadIdx.x & (warpSize - 1)) == 0)
        atomicAdd(out, v);
}

void launch_sr_warp_shuffle_sum(const float* x, float* out, int n)
{
    int block = 256;
    int grid = (n + block - 1) / block;
    sum_warp_atomic<<<grid, block>>>(x, out, n);
}
