// L1 norm sum(|x|): one element per thread into a static __shared__ float s[256],
// sequential-addressing tree with a literal start stride, atomicAdd per block.
#include <cuda_runtime.h>

__global__ void abs_sum(const float* x, float* result, int n)
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * 256 + tid;

    s[tid] = (i < n) ? fabsf(x[i]) : 0.0f;
    __syncthreads();

    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        atomicAdd(result, s[0]);
}

void launch_sr_abs_sum_static_smem(const float* x, float* result, int n)
{
    abs_sum<<<(n + 255) / 256, 256>>>(x, result, n);
}
