// Per-block partial sums of squares (size_t indices): sequential-addressing tree
// (s = blockDim.x/2; s >>= 1) in dynamic shared memory, one partial per block.
#include <cuda_runtime.h>

__global__ void sumsq_partial(const float* __restrict__ x, float* __restrict__ partial, size_t n)
{
    extern __shared__ float sdata[];

    unsigned int tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + tid;

    float v = 0.0f;
    if (i < n) {
        v = x[i];
        v = v * v;
    }
    sdata[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        partial[blockIdx.x] = sdata[0];
}

void launch_tr_sumsq_partial_f32(const float* x, float* partial, size_t n)
{
    const unsigned int threads = 256;
    size_t blocks = (n + threads - 1) / threads;
    sumsq_partial<<<(unsigned int)blocks, threads, threads * sizeof(float)>>>(x, partial, n);
}
