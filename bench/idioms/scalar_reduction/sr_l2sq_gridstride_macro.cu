// Squared L2 norm, "CUDA by Example" style: grid-stride while loop accumulating per
// thread, static __shared__ cache[THREADS] halving tree, atomicAdd; macros for sizes.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_BLOCKS 1024

__global__ void l2_norm_sq(const float* x, float* out, int n)
{
    __shared__ float cache[THREADS];
    float sum = 0.0f;
    int gid = blockIdx.x * THREADS + threadIdx.x;
    while (gid < n) {
        float v = x[gid];
        sum += v * v;
        gid += THREADS * gridDim.x;
    }
    cache[threadIdx.x] = sum;
    __syncthreads();

    int i = THREADS / 2;
    while (i != 0) {
        if (threadIdx.x < i)
            cache[threadIdx.x] += cache[threadIdx.x + i];
        __syncthreads();
        i /= 2;
    }

    if (threadIdx.x == 0)
        atomicAdd(out, cache[0]);
}

void launch_sr_l2sq_gridstride_macro(const float* x, float* out, int n)
{
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    l2_norm_sq<<<blocks, THREADS>>>(x, out, n);
}
