// Dot product of two float vectors: warp shuffle, per-warp sums in static shared memory,
// warp 0 reduces them and atomically adds the block's sum; __restrict__, 512 threads.
#include <cuda_runtime.h>

__global__ void dot_kernel(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ result, int n)
{
    __shared__ float warp_sums[32];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;

    int i = blockIdx.x * blockDim.x + tid;
    float v = 0.0f;
    if (i < n)
        v = a[i] * b[i];

    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();

    if (warp == 0) {
        v = (lane < (blockDim.x >> 5)) ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (lane == 0)
            atomicAdd(result, v);
    }
}

void launch_sr_dot_two_level(const float* a, const float* b, float* result, int n)
{
    const int threads = 512;
    dot_kernel<<<(n + threads - 1) / threads, threads>>>(a, b, result, n);
}
