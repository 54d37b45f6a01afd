// Maximum of an int array: template block size, interleaved tree (tid % (2*s)) over
// dynamic shared memory, thread 0 does atomicMax into the result.
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void block_max_int(const int* x, int* out, int n)
{
    extern __shared__ int smax[];

    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    smax[tid] = (i < n) ? x[i] : (int)0x80000000;
    __syncthreads();

    for (int s = 1; s < BLOCK; s *= 2) {
        if (tid % (2 * s) == 0)
            smax[tid] = max(smax[tid], smax[tid + s]);
        __syncthreads();
    }

    if (tid == 0)
        atomicMax(out, smax[0]);
}

void launch_tr_max_int_atomic(const int* x, int* out, int n)
{
    const int B = 128;
    int grid = (n + B - 1) / B;
    block_max_int<B><<<grid, B, B * sizeof(int)>>>(x, out, n);
}
