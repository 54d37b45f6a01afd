// Per-block partial sums of an int array, "first add during load": each thread adds two
// elements one block apart, then a sequential-addressing tree; sizes from macros.
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define ELEMS_PER_BLOCK (2 * BLOCK_SIZE)

__global__ void reduce_add_first(const int* g_in, int* g_partial, int n)
{
    extern __shared__ int sdata[];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * ELEMS_PER_BLOCK + tid;

    int sum = 0;
    if (i < n)
        sum = g_in[i];
    if (i + BLOCK_SIZE < n)
        sum += g_in[i + BLOCK_SIZE];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }

    if (tid == 0)
        g_partial[blockIdx.x] = sdata[0];
}

void launch_tr_sum_int_twoload(const int* x, int* partial, int n)
{
    int blocks = (n + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK;
    reduce_add_first<<<blocks, BLOCK_SIZE, BLOCK_SIZE * sizeof(int)>>>(x, partial, n);
}
