// Count of elements greater than a threshold: shared-memory block counter bumped with
// int atomicAdd, thread 0 adds the block's count to the global counter.
#include <cuda_runtime.h>

__global__ void count_above(const float* x, int* count, float thresh, int n)
{
    __shared__ int block_count;
    if (threadIdx.x == 0)
        block_count = 0;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > thresh)
        atomicAdd(&block_count, 1);
    __syncthreads();

    if (threadIdx.x == 0 && block_count > 0)
        atomicAdd(count, block_count);
}

void launch_sr_count_above(const float* x, int* count, float thresh, int n)
{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    count_above<<<blocks, threads>>>(x, count, thresh, n);
}
