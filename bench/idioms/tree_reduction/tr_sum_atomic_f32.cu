// Sum of a float array: the textbook interleaved-addressing block tree reduction
// (tid % (2*s)) in dynamic shared memory, thread 0 atomically adds the block's sum.
#include <cuda_runtime.h>

__global__ void block_sum_atomic(const float* x, float* out, int n)
{
    extern __shared__ float sdata[];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        atomicAdd(out, sdata[0]);
}

void launch_tr_sum_atomic_f32(const float* x, float* out, int n)
{
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    block_sum_atomic<<<blocks, threads, threads * sizeof(float)>>>(x, out, n);
}
